vim9script
# Plays the shared conformance vectors (Protocol/vectors/engine/*.json and presets/*.json)
# through the plugin's own typing path: each case's text on a line, a field over it opened
# with maskd/openField, and every step done as a person does it in Vim, the daemon
# formatting through didFormat:
# - `keys`: each character (grapheme cluster) typed in Insert mode; over a selection, the
#   first one typed in Select mode, which replaces the selection in one change;
# - `insert`: a paste, CTRL-R CTRL-O in Insert mode, or `p` in Visual mode over a selection;
# - `backspace` / `delete`: <BS> / <Del> in Insert mode; a selection goes with <BS> in
#   Select mode;
# - `select`: the caret or selection the next step starts from;
# - `format`: the field closed and opened again over the line; `setMask`: :MaskdSetMask's
#   path (maskd/setMask with the cursor).
# 'virtualedit' is "onemore" so that a Normal mode cursor can stand after the last character.
#
# What Vim cannot express is skipped and counted, with the reason:
# - a raw `edit` step (a maskd/apply edit with its own selection);
# - a forward delete that differs from a backspace (of a literal): a didChange says what was
#   deleted, not which side of the caret, and the daemon takes every deletion for a
#   backspace; a forward delete that gives what a backspace would is played;
# - a line break typed or pasted into a field (a field is one line);
# - the caret a `format` step carries (maskd/openField puts it at the field's end);
# - a selection left selected after an edit (Vim has a cursor after a change).
# Text and state are still checked in a step with such an expectation.
#   MASKD=... vim -N -u NONE -i NONE -es -S test/vectors_tests.vim </dev/null
# MASKD_VECTORS: directories of vector files (':'-separated) instead of the repository's.
# MASKD_VECTORS_VERBOSE=1: one line per case.

import './helpers.vim' as H
import autoload '../autoload/maskd/client.vim'
import autoload '../autoload/maskd/fields.vim'
import autoload '../autoload/maskd/offset.vim'

const DIRS = $MASKD_VECTORS != '' ? split($MASKD_VECTORS, ':')
  : [H.REPO_ROOT .. '/Protocol/vectors/engine', H.REPO_ROOT .. '/Protocol/vectors/presets']
const VERBOSE = $MASKD_VECTORS_VERBOSE == '1'
const STATE_KEYS = ['value', 'complete', 'valid', 'problems', 'next', 'placeholder', 'mask', 'brand', 'region', 'type', 'extension', 'e164', 'rfc3966']

set virtualedit=onemore

var reasons: dict<number> = {}

# Grapheme clusters ---------------------------------------------------------------------------

def IsRegional(cp: number): bool
  return cp >= 0x1F1E6 && cp <= 0x1F1FF
enddef

# Returns whether code point `cp` continues the cluster `prev` (enough of UAX #29 for the
# vectors: Vim keeps composing characters with their base already).
def Continues(prev: string, cp: number): bool
  var cps = str2list(prev)
  if cp == 0x200D || (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0x1F3FB && cp <= 0x1F3FF)
      || (cp >= 0xE0020 && cp <= 0xE007F) || cps[-1] == 0x200D
    return true
  endif
  if IsRegional(cp)
    var n = 0
    for c in reverse(copy(cps))
      if !IsRegional(c)
        break
      endif
      n += 1
    endfor
    return n % 2 == 1
  endif
  return false
enddef

def Clusters(text: string): list<string>
  var out: list<string> = []
  for ch in split(text, '\zs')
    if !empty(out) && Continues(out[-1], char2nr(ch))
      out[-1] ..= ch
    else
      add(out, ch)
    endif
  endfor
  return out
enddef

# Keys ----------------------------------------------------------------------------------------

# Puts the Normal mode cursor on the character that ends at UTF-16 offset `at`.
def g:MaskdTestPutLast(at: number)
  var text = getline('.')
  var byte = offset.ByteCol(text, at)
  var first = byte > 0 ? byteidxcomp(text, charidx(text, byte - 1, true)) : 0
  cursor(line('.'), first + 1)
enddef

def Put(at: number): string
  return printf("\<Cmd>call g:MaskdTestPut(%d)\<CR>", at)
enddef

def SyncKeys(): string
  return "\<Cmd>call g:MaskdTestSync(v:true)\<CR>"
enddef

# Keys that select [s, e) in Select mode, from Normal mode.
def SelectKeys(sel: list<number>): string
  return Put(sel[0]) .. 'v' .. printf("\<Cmd>call g:MaskdTestPutLast(%d)\<CR>", sel[1]) .. "\<C-g>"
enddef

# Keys that enter Insert mode at UTF-16 offset `at`.
def InsertAt(at: number): string
  return 'i' .. Put(at)
enddef

const LEAVE = "\<Cmd>call g:MaskdTestCaret()\<CR>\<Esc>"

# Runs `keys`; returns the caret afterwards: where Insert mode was left when `insert`, else
# the Normal mode cursor.
def Run(keys: string, insert: bool): number
  feedkeys(keys, 'xt')
  return insert ? H.LastCaret() : H.Caret()
enddef

# Steps ---------------------------------------------------------------------------------------

def Skip(reason: string)
  throw 'SKIP: ' .. reason
enddef

def U16(text: string): number
  return offset.Utf16Len(text)
enddef

# Returns the response of a stateless maskd/apply.
def Apply(params: dict<any>): dict<any>
  var reply = client.Request('maskd/apply', params)
  if !has_key(reply, 'result')
    H.Fail('maskd/apply: ' .. string(get(reply, 'error', reply)))
  endif
  return reply.result
enddef

# Returns whether a forward delete of [s, e) of the line (e < 0: the character after s)
# gives what a backspace deleting the same gives: only then can a didChange express it.
def DeleteIsBackspace(mask: any, s: number, e: number): bool
  var text = getline(1)
  var end = e
  if end < 0
    var rest = Clusters(strpart(text, offset.ByteCol(text, s)))
    if empty(rest)
      return true
    endif
    end = s + U16(rest[0])
  endif
  var edit = {start: s, end: end, text: ''}
  var forward = Apply({mask: mask, text: text, selection: {start: s, end: s}, edit: edit})
  var back = Apply({mask: mask, text: text, selection: {start: s, end: end}, edit: edit})
  return forward.text ==# back.text && forward.caret == back.caret
enddef

# Opens a field over the whole line with `mask`; returns the daemon's response.
def Open(mask: any): dict<any>
  var range = {start: {line: 0, character: 0}, end: {line: 0, character: U16(getline(1))}}
  # Junk read into the mask as the vectors expect: forced (see vectors/README).
  return fields.Open(bufnr('%'), range, mask, '', true)
enddef

# Plays `step` on the field; ctx: {mask, field, caret, sel}.  Returns the unverifiable
# expectation keys and what was rejected and cut.
def Play(step: dict<any>, ctx: dict<any>): dict<any>
  var out = {cannot: {}, rejected: '', overflow: ''}
  H.Gathered()
  if has_key(step, 'format')
    if ctx.field != ''
      fields.Close(bufnr('%'), ctx.field)
    endif
    var reply = Open(ctx.mask)
    if !has_key(reply, 'result')
      H.Fail('openField: ' .. string(get(reply, 'error', reply)))
    endif
    ctx.field = reply.result.field
    out.rejected = get(reply.result, 'rejected', '')
    out.overflow = get(reply.result, 'overflow', '')
    out.cannot = {caret: true, selection: true}
    # openField carries no caret: go on from where the vector says the format leaves it.
    var want = get(step, 'expect', {})
    ctx.sel = []
    if type(get(want, 'selection', 0)) == v:t_list
      ctx.caret = want.selection[1]
      ctx.sel = want.selection[0] != want.selection[1] ? copy(want.selection) : []
    else
      ctx.caret = get(want, 'caret', U16(getline(1)))
    endif
    return out
  elseif has_key(step, 'keys')
    var keys = ''
    var first = true
    for ch in Clusters(step.keys)
      if ch =~ "[\n\r]"
        Skip('a line break typed into a field')
      endif
      if first && !empty(ctx.sel)
        keys ..= SelectKeys(ctx.sel) .. ch .. SyncKeys()
      else
        keys ..= (first ? InsertAt(ctx.caret) : '') .. ch .. SyncKeys()
      endif
      first = false
    endfor
    ctx.caret = first ? ctx.caret : Run(keys .. LEAVE, true)
    ctx.sel = []
  elseif has_key(step, 'insert')
    if step.insert =~ "[\n\r]"
      Skip('a line break pasted into a field')
    endif
    setreg('"', step.insert, 'c')
    if !empty(ctx.sel)
      ctx.caret = Run(SelectKeys(ctx.sel) .. "\<C-g>p" .. SyncKeys(), false)
    else
      ctx.caret = Run(InsertAt(ctx.caret) .. "\<C-r>\<C-o>\"" .. SyncKeys() .. LEAVE, true)
    endif
    ctx.sel = []
  elseif has_key(step, 'backspace') || has_key(step, 'delete')
    var forward = has_key(step, 'delete')
    var n = get(step, forward ? 'delete' : 'backspace', 1)
    n = type(n) == v:t_number ? n : 1
    if !empty(ctx.sel)
      if forward && !DeleteIsBackspace(ctx.mask, ctx.sel[0], ctx.sel[1])
        Skip('a forward delete of a literal (a didChange cannot say which side of the caret)')
      endif
      ctx.caret = Run(SelectKeys(ctx.sel) .. "\<BS>" .. SyncKeys(), false)
      ctx.sel = []
      n -= 1
    endif
    for _ in range(n)
      if forward && !DeleteIsBackspace(ctx.mask, ctx.caret, -1)
        Skip('a forward delete of a literal (a didChange cannot say which side of the caret)')
      endif
      ctx.caret = Run(InsertAt(ctx.caret) .. (forward ? "\<Del>" : "\<BS>") .. SyncKeys() .. LEAVE, true)
    endfor
  elseif has_key(step, 'select')
    ctx.caret = step.select[1]
    ctx.sel = step.select[0] != step.select[1] ? copy(step.select) : []
  elseif has_key(step, 'setMask')
    var pos = {line: 0, character: ctx.caret}
    var reply = fields.SetMask(bufnr('%'), ctx.field, step.setMask, pos, true)
    if !has_key(reply, 'result')
      H.Fail('setMask: ' .. string(get(reply, 'error', reply)))
    endif
    ctx.mask = step.setMask
    ctx.caret = H.Caret()
    ctx.sel = []
    out.rejected = get(reply.result, 'rejected', '')
    out.overflow = get(reply.result, 'overflow', '')
    return out
  elseif has_key(step, 'edit')
    Skip('a raw maskd/apply edit')
  else
    Skip('an unknown step ' .. string(keys(step)))
  endif
  var got = H.Gathered()
  out.rejected = got.rejected
  out.overflow = got.overflow
  return out
enddef

def Same(want: any, got: any): bool
  if type(want) == v:t_none
    return type(got) == v:t_none
  endif
  return type(want) == type(got) && want == got
enddef

# Checks the step's expectations; returns whether one could not be verified.
def Check(step: dict<any>, ctx: dict<any>, out: dict<any>): bool
  var want = get(step, 'expect', {})
  if type(want) != v:t_dict
    return false
  endif
  var skipped = false
  var text = getline(1)
  if has_key(want, 'text') && want.text !=# text
    H.Fail(printf('text: expected %s, got %s', string(want.text), string(text)))
  endif
  var sel = empty(ctx.sel) ? [ctx.caret, ctx.caret] : ctx.sel
  if has_key(want, 'caret')
    if has_key(out.cannot, 'caret')
      skipped = skipped || want.caret != U16(text)
    elseif want.caret != sel[1]
      H.Fail(printf('caret: expected %d, got %d in %s', want.caret, sel[1], string(text)))
    endif
  endif
  if type(get(want, 'selection', 0)) == v:t_list
    if has_key(out.cannot, 'selection') || (empty(ctx.sel) && want.selection[0] != want.selection[1])
      skipped = true
    elseif want.selection != sel
      H.Fail(printf('selection: expected %s, got %s', string(want.selection), string(sel)))
    endif
  endif
  var state = get(fields.List(bufnr('%')), 0, {})
  for k in STATE_KEYS
    if has_key(want, k) && !Same(want[k], get(state, k, null))
      H.Fail(printf('%s: expected %s, got %s', k, string(want[k]), string(get(state, k, null))))
    endif
  endfor
  for k in ['rejected', 'overflow']
    if has_key(want, k) && want[k] !=# out[k]
      H.Fail(printf('%s: expected %s, got %s', k, string(want[k]), string(out[k])))
    endif
  endfor
  if !client.InSync(bufnr('%'))
    H.Fail("the plugin's copy of the buffer differs from the buffer")
  endif
  return skipped
enddef

# Cases ---------------------------------------------------------------------------------------

def Skipped(reason: string, n = 1)
  H.Count('skipped', n)
  reasons[reason] = get(reasons, reason, 0) + n
enddef

def RunCase(file: string, c: dict<any>)
  var label = printf('%s: %s', fnamemodify(file, ':h:t') .. '/' .. fnamemodify(file, ':t'), get(c, 'name', '?'))
  H.Buffer([get(c, 'text', '')])
  if has_key(c, 'error')
    var reply = Open(c.mask)
    var want = c.error
    var err = get(reply, 'error', {})
    var msg = ''
    if empty(err)
      msg = 'the mask compiled, expected error ' .. string(want)
    elseif has_key(want, 'code') && get(err, 'code', 0) != want.code
      msg = printf('error code %s, expected %s (%s)', get(err, 'code', '?'), want.code, get(err, 'message', ''))
    elseif has_key(want, 'message') && stridx(get(err, 'message', ''), want.message) < 0
      msg = printf('error %s does not contain %s', string(get(err, 'message', '')), string(want.message))
    endif
    H.Count(msg == '' ? 'passed' : 'failed')
    if msg != ''
      H.Out('FAIL  ' .. label .. ': ' .. msg)
    elseif VERBOSE
      H.Out('ok    ' .. label)
    endif
    return
  endif
  var steps = get(c, 'steps', [])
  var ctx: dict<any> = {mask: c.mask, field: '', caret: 0, sel: []}
  if empty(steps) || !has_key(steps[0], 'format')
    var reply = Open(c.mask)
    if !has_key(reply, 'result')
      H.Count('failed')
      H.Out(printf('FAIL  %s: openField: %s', label, string(get(reply, 'error', reply))))
      Skipped('after a failed step', len(steps))
      return
    endif
    ctx.field = reply.result.field
  endif
  var text = getline(1)
  var sel = get(c, 'selection', [U16(text), U16(text)])
  ctx.caret = sel[1]
  ctx.sel = sel[0] != sel[1] ? copy(sel) : []
  var state = 'passed'
  var i = 0
  for step in steps
    i += 1
    if state != 'passed'
      Skipped(state == 'failed' ? 'after a failed step' : 'after a skipped step')
      continue
    endif
    try
      var out = Play(step, ctx)
      if Check(step, ctx, out)
        Skipped('an expectation Vim cannot observe')
        if VERBOSE
          H.Out(printf('skip  %s, step %d %s: an expectation Vim cannot observe', label, i, json_encode(step)))
        endif
      else
        H.Count('passed')
      endif
    catch /^SKIP: /
      Skipped(substitute(v:exception, '^SKIP: ', '', ''))
      state = 'skipped'
      if VERBOSE
        H.Out(printf('skip  %s, step %d %s: %s', label, i, json_encode(step), substitute(v:exception, '^SKIP: ', '', '')))
      endif
    catch
      H.Count('failed')
      state = 'failed'
      var msg = v:exception =~ '^FAIL: ' ? substitute(v:exception, '^FAIL: ', '', '') : v:exception .. ' at ' .. v:throwpoint
      H.Out(printf('FAIL  %s, step %d %s: %s', label, i, json_encode(step), msg))
      if mode() =~ '^i'
        feedkeys("\<Esc>", 'xt')
      endif
    endtry
  endfor
  if VERBOSE
    H.Out((state == 'failed' ? 'FAIL  ' : 'ok    ') .. label)
  endif
enddef

var files: list<string> = []
for dir in DIRS
  files += sort(glob(dir .. '/*.json', false, true))
endfor
if empty(files)
  H.Out('FAIL  no vector files in ' .. string(DIRS))
  H.Count('failed')
endif
var count = 0
try
  for file in files
    var data = json_decode(join(readfile(file), "\n"))
    for c in get(data, 'cases', [])
      count += 1
      RunCase(file, c)
    endfor
  endfor
catch
  H.Out('FAIL  the runner stopped: ' .. v:exception .. ' at ' .. v:throwpoint)
  H.Count('failed')
endtry
H.Out(printf('%d cases in %d files', count, len(files)))
for reason in sort(keys(reasons))
  H.Out(printf('  skipped %d: %s', reasons[reason], reason))
endfor
H.Finish()
