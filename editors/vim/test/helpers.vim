vim9script
# Helpers of the Vim plugin's tests: a case runner that writes its results to a log, and
# typing key by key in Insert mode with feedkeys(), checking the buffer and the cursor
# between keystrokes.
#
# A test file imports this, declares cases with Case() and ends with Run().  Run it as
#   MASKD=/path/to/maskd vim -N -u NONE -i NONE -es -S test/typing_tests.vim </dev/null
# (test/run.sh does).  Results go to $MASKD_TEST_LOG, one line per case ("ok", "FAIL",
# "skip"), and a last line "result: N passed, N failed, N skipped"; the exit code is 0 only
# when nothing failed.
#
# Typing: feedkeys(keys, 'xt') runs the keys at once, as typed.  Between two keystrokes,
# <Cmd> calls g:MaskdTestSync(), which flushes the buffer's listener (the didChange goes out,
# as it would before Vim redraws) and waits for the daemon's didFormat, and
# g:MaskdTestCheck(), which records what the buffer and the cursor are while still in
# Insert mode.  Failures inside a <Cmd> are recorded, then raised once the keys are done.

const TEST_DIR = expand('<sfile>:p:h')
export const PLUGIN_DIR = fnamemodify(TEST_DIR, ':h')
export const REPO_ROOT = fnamemodify(PLUGIN_DIR, ':h:h')

if &encoding !=# 'utf-8'
  set encoding=utf-8
endif
set backspace=indent,eol,start
set nomore shortmess+=F
execute 'set runtimepath^=' .. fnameescape(PLUGIN_DIR)
g:maskd_cmd = [$MASKD != '' ? $MASKD : REPO_ROOT .. '/.build/debug/maskd']
g:maskd_timeout = 5000
# The tests type their own Insert-mode keys after opening a field.
g:maskd_insert_on_open = false
runtime plugin/maskd.vim

import autoload '../autoload/maskd/client.vim'
import autoload '../autoload/maskd/fields.vim'
import autoload '../autoload/maskd/offset.vim'

if $MASKD_TRACE != ''
  g:maskd_trace = $MASKD_TRACE
endif
const LOG = $MASKD_TEST_LOG != '' ? $MASKD_TEST_LOG : '/tmp/maskd-vim-' .. fnamemodify(expand('%'), ':t:r') .. '.log'
const WAIT_MS = 3000
const DEBUG = $MASKD_TEST_DEBUG != ''

var cases: list<list<any>> = []
var lines: list<string> = []
var totals = {passed: 0, failed: 0, skipped: 0}
var problems: list<string> = []
var checks: list<list<any>> = []
var caret = 0
var gathered = {rejected: '', overflow: ''}

# Output --------------------------------------------------------------------------------------

# Appends `line` to the log (written at once, so a hang still leaves what came before).
export def Out(line: string)
  add(lines, line)
  writefile(lines, LOG)
enddef

# Counts one result of `kind` ('passed', 'failed' or 'skipped').
export def Count(kind: string, n = 1)
  totals[kind] += n
enddef

# Raises a test failure.
export def Fail(msg: string)
  throw 'FAIL: ' .. msg
enddef

# Raises a failure unless `want` equals `got`.
export def Eq(want: any, got: any, what: string)
  if type(want) != type(got) || want != got
    Fail(printf('%s: expected %s, got %s', what, string(want), string(got)))
  endif
enddef

# Cases ---------------------------------------------------------------------------------------

# Declares a case: `Fn` raises on failure.
export def Case(name: string, Fn: func())
  add(cases, [name, Fn])
enddef

# Runs every case, writes the results and quits Vim (exit code 1 if a case failed).
export def Run()
  for [name, Fn] in cases
    problems = []
    try
      Fn()
      if !empty(problems)
        Fail(problems[0])
      endif
      Count('passed')
      Out('ok    ' .. name)
    catch /^SKIP: /
      Count('skipped')
      Out('skip  ' .. name .. ': ' .. substitute(v:exception, '^SKIP: ', '', ''))
    catch
      Count('failed')
      var msg = v:exception =~ '^FAIL: ' ? substitute(v:exception, '^FAIL: ', '', '') : v:exception .. ' at ' .. v:throwpoint
      Out('FAIL  ' .. name .. ': ' .. msg)
      if mode() =~ '^i'
        feedkeys("\<Esc>", 'xt')
      endif
    endtry
  endfor
  Finish()
enddef

# Writes the result line and quits.
export def Finish()
  client.Stop()
  for e in client.Log().errors
    Out('plugin message: ' .. e)
  endfor
  if client.Resyncs() > 0
    Out(printf('FAIL  the plugin lost track of a buffer and sent it whole %d times', client.Resyncs()))
    Count('failed')
  endif
  Out(printf('result: %d passed, %d failed, %d skipped', totals.passed, totals.failed, totals.skipped))
  if totals.failed > 0
    cquit 1
  endif
  qall!
enddef

# Buffers and state ----------------------------------------------------------------------------

# Makes a new scratch buffer holding `text` the current one, wiping the previous one.
export def Buffer(text: list<string>)
  var old = bufnr('%')
  enew!
  setlocal buftype=nofile bufhidden=wipe noswapfile
  setline(1, text)
  if old != bufnr('%') && bufexists(old)
    execute 'silent! bwipeout! ' .. old
  endif
  caret = 0
enddef

# Returns line `lnum` of the current buffer.
export def Line(lnum = 1): string
  return getline(lnum)
enddef

# Returns the cursor as a UTF-16 offset in its line (in Normal mode: the offset of the
# character under it).
export def Caret(): number
  return offset.Utf16Col(getline('.'), col('.') - 1)
enddef

# Returns the plugin's counters for the current buffer.
export def Stats(): dict<any>
  return fields.Buf(bufnr('%')).stats
enddef

# Returns the state of the first recorded field of the current buffer, or {}.
export def FirstField(): dict<any>
  return get(fields.List(bufnr('%')), 0, {})
enddef

# Runs Ex command `cmd` and lets the daemon's answers in.
export def Command(cmd: string)
  execute cmd
  Idle()
  Settle()
enddef

def g:MaskdTestIdle()
  Idle()
enddef

# Waits until the answers to the commands' requests have come (they do not wait for them).
export def Idle()
  var waited = 0
  while client.Busy() && waited < WAIT_MS
    sleep 1m
    waited += 1
  endwhile
enddef

# Lets pending messages from the daemon in (callbacks run during :sleep).
export def Settle()
  sleep 5m
enddef

# Typing --------------------------------------------------------------------------------------

# Sends the changes the listener holds and waits for the didFormat that answers them.  With
# `format` false, no answer is expected (the change touched no field): it waits briefly and
# fails if one came.
def Sync(format: bool): dict<any>
  var bufnr = bufnr('%')
  var before = client.Version(bufnr)
  var stats = fields.Buf(bufnr).stats
  var applied = stats.applied
  client.Flush(bufnr)
  var version = client.Version(bufnr)
  var got = {changed: version != before, formatted: false}
  if DEBUG
    Out(printf('  sync %d -> %d %s', before, version, string(getline('.'))))
  endif
  if version == before
    return got
  endif
  var waited = 0
  if format
    while stats.last_version < version && waited < WAIT_MS
      sleep 1m
      waited += 1
    endwhile
    if stats.last_version < version
      add(problems, printf('no didFormat for version %d within %d ms (line %s)', version, WAIT_MS, string(getline('.'))))
    endif
  else
    sleep 30m
    if stats.last_version >= version
      add(problems, printf('a didFormat for version %d, expected none', version))
    endif
  endif
  got.formatted = stats.applied > applied
  if got.formatted
    var last = fields.Buf(bufnr).last
    gathered.rejected ..= type(last.rejected) == v:t_string ? last.rejected : ''
    gathered.overflow ..= type(last.overflow) == v:t_string ? last.overflow : ''
  endif
  return got
enddef

# Returns the `rejected` and `overflow` of every didFormat applied since the last call.
export def Gathered(): dict<string>
  var got = gathered
  gathered = {rejected: '', overflow: ''}
  return got
enddef

var last_sync: dict<any> = {}

# Waits for the didFormat answering the last change sent (sent by the test itself).
def g:MaskdTestWait()
  var bufnr = bufnr('%')
  var stats = fields.Buf(bufnr).stats
  var own = fields.Buf(bufnr).own
  var target = client.Version(bufnr)
  var waited = 0
  # Done when the answer came, or when the change last sent is the plugin's own echo.
  while stats.last_version < target && !has_key(own, string(client.Version(bufnr))) && waited < WAIT_MS
    sleep 1m
    waited += 1
  endwhile
  if stats.last_version < target && !has_key(own, string(client.Version(bufnr)))
    add(problems, printf('no didFormat for version %d within %d ms', target, WAIT_MS))
  endif
enddef

def g:MaskdTestSync(format: bool)
  last_sync = Sync(format)
enddef

# Returns what the last synchronisation saw: {changed, formatted}.
export def LastSync(): dict<any>
  return last_sync
enddef

# Checks that line `opts.lnum` (default 1) is `text` and the cursor is at UTF-16 offset
# `at` (opts.byte: also at that byte column; opts.mode: 'i' or 'n'), recording a failure.
def Check(text: string, at: number, opts: dict<any>): string
  var lnum = get(opts, 'lnum', 1)
  var where = get(opts, 'what', '')
  var prefix = where == '' ? '' : where .. ': '
  if getline(lnum) !=# text
    return printf('%stext: expected %s, got %s', prefix, string(text), string(getline(lnum)))
  endif
  if line('.') != lnum
    return printf('%scursor line: expected %d, got %d', prefix, lnum, line('.'))
  endif
  if Caret() != at
    return printf('%scaret: expected %d, got %d in %s', prefix, at, Caret(), string(getline(lnum)))
  endif
  if has_key(opts, 'byte') && col('.') - 1 != opts.byte
    return printf('%sbyte column: expected %d, got %d', prefix, opts.byte, col('.') - 1)
  endif
  if has_key(opts, 'mode')
    var m = mode() =~ '^i' ? 'i' : 'n'
    if m != opts.mode
      return printf('%smode: expected %s, got %s', prefix, opts.mode, mode())
    endif
  endif
  if !client.InSync(bufnr('%'))
    return prefix .. "the plugin's copy of the buffer differs from the buffer"
  endif
  return ''
enddef

def g:MaskdTestCheck(n: number)
  var [text, at, opts] = checks[n]
  var msg = Check(text, at, opts)
  if msg != ''
    add(problems, msg)
  endif
enddef

def g:MaskdTestCaret()
  caret = Caret()
enddef

def g:MaskdTestPut(at: number)
  cursor(line('.'), offset.ByteCol(getline('.'), at) + 1)
enddef

# Checks the buffer and the cursor now (see Check()); raises on a mismatch.
export def Expect(text: string, at: number, opts: dict<any> = {})
  var msg = Check(text, at, opts)
  if msg != ''
    Fail(msg)
  endif
  if !empty(problems)
    Fail(problems[0])
  endif
enddef

# Returns the keys that make a check of `text` and caret `at` once they are typed.
def CheckKeys(text: string, at: number, opts: dict<any>): string
  add(checks, [text, at, opts])
  return printf("\<Cmd>call g:MaskdTestCheck(%d)\<CR>", len(checks) - 1)
enddef

def SyncKeys(format: bool): string
  return printf("\<Cmd>call g:MaskdTestSync(%s)\<CR>", format ? 'v:true' : 'v:false')
enddef

# Types in Insert mode: `enter` enters it (default: "i" back at the caret where the last
# Insert() left it), then for each step [keys, text, caret, opts?] the keys, a
# synchronisation with the daemon and a check of the line and the caret.  opts.format =
# false: the keystroke touches no field, so no didFormat is awaited.  Insert mode is left
# with <Esc> at the end (the caret is remembered for the next Insert()).
export def Insert(steps: list<list<any>>, enter = '')
  var keys = enter != '' ? enter : "i\<Cmd>call g:MaskdTestPut(" .. caret .. ")\<CR>"
  for step in steps
    var opts: dict<any> = len(step) > 3 ? copy(step[3]) : {}
    opts.what = 'after ' .. strtrans(step[0])
    opts.mode = 'i'
    keys ..= step[0] .. SyncKeys(get(opts, 'format', true)) .. CheckKeys(step[1], step[2], opts)
  endfor
  keys ..= "\<Cmd>call g:MaskdTestCaret()\<CR>\<Esc>"
  feedkeys(keys, 'xt')
  if !empty(problems)
    Fail(problems[0])
  endif
enddef

# Types `chars` one by one in Insert mode, synchronising after each but checking nothing.
export def Type(chars: string, enter = '')
  var keys = enter != '' ? enter : "i\<Cmd>call g:MaskdTestPut(" .. caret .. ")\<CR>"
  for ch in split(chars, '\zs')
    keys ..= ch .. SyncKeys(true)
  endfor
  keys ..= "\<Cmd>call g:MaskdTestCaret()\<CR>\<Esc>"
  feedkeys(keys, 'xt')
  if !empty(problems)
    Fail(problems[0])
  endif
enddef

# Runs Normal mode `keys`, then synchronises (opts.format = false: no didFormat awaited).
export def Normal(keys: string, opts: dict<any> = {})
  feedkeys(keys, 'xt')
  Sync(get(opts, 'format', true))
  if !empty(problems)
    Fail(problems[0])
  endif
enddef

# Returns the caret where the last Insert() left Insert mode.
export def LastCaret(): number
  return caret
enddef

# Sets the caret the next Insert() starts at.
export def SetCaret(at: number)
  caret = at
enddef
