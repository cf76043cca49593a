vim9script
# Generated editing: seeded sequences of Normal-mode commands on whole lines (dd, p, P, J, gJ, o,
# O, S, cc, >>, <<, Visual lines, :m, :t, :sort, u, CTRL-R, g-, g+, . and moves between lines), and
# within lines with the cursor anywhere (x, ~, r, D, C, dw, de, i, a, p, g~~, J, u, ...), run on a
# form with typed fields and, in a second window, on the same text in a buffer maskd does not
# know. After every command both hold the same lines and the same cursor: maskd never changes
# what such a command made, and u and CTRL-R reach every state as in plain Vim.
#   MASKD=... vim -N -u NONE -i NONE -es -S test/structure_tests.vim </dev/null

import './helpers.vim' as H
import autoload '../autoload/maskd/client.vim'
import autoload '../autoload/maskd/fields.vim'

const COMMANDS = [
  'dd', '2dd', 'dj', 'dk', 'yyp', 'yyP', 'Yp', 'yjP', 'p', 'P', 'ddp', 'ddP', 'ddkP', 'J', 'gJ',
  "o\<Esc>", "O\<Esc>", "S\<Esc>", "cc\<Esc>", '>>', '<<', 'Vjd', 'Vjy', 'Vj>', 'VjJ',
  ":silent! m+1\<CR>", ":silent! m-2\<CR>", ":t.\<CR>", ":sort\<CR>", '.', 'u', 'u', 'u',
  "\<C-r>", "\<C-r>", 'g-', 'g+', 'j', 'k', 'gg', 'G',
]
const STEPS = 30

# Sends what the listener holds and waits until the daemon has handled it: its answer to a
# request comes after the didFormat of every change before it.
def Settle()
  client.Flush(bufnr('%'))
  fields.Fetch(bufnr('%'))
  H.Settle()
enddef

# Runs `keys` as typed; a command Vim refuses (nothing to put yet) is refused in both windows.
def Press(keys: string)
  try
    feedkeys(keys, 'xt')
  catch
  endtry
enddef

# The form: a phone, a card, and an expiry date and a code on one line, typed into their fields,
# and lines of prose around them.
def Form()
  H.Buffer(['Name: Bob', 'Tel: ', 'Card: ', 'Note: call after 5'])
  cursor(2, 5)
  H.Command('MaskdField phone.us')
  H.Normal("a2015550123\<Esc>")
  cursor(3, 6)
  H.Command('MaskdField card')
  H.Normal("a378282246310005\<Esc>")
  # Two fields on one line, a blank apart.
  append(3, 'Exp:  CVC: ')
  Settle()
  cursor(4, 5)
  H.Command('MaskdField [00]/[00]')
  H.Normal("a1229\<Esc>")
  cursor(4, 16)
  H.Command('MaskdField [000]')
  H.Normal("a123\<Esc>")
  H.Eq(['Name: Bob', 'Tel: +1 (201) 555-0123', 'Card: 3782 822463 10005', 'Exp: 12/29 CVC: 123',
    'Note: call after 5'], getline(1, '$'), 'the form')
enddef

# Starts the undo history of the current buffer here, as in a buffer just read.
def ForgetHistory()
  var levels = &l:undolevels
  &l:undolevels = -1
  execute "normal! 1G0a \<BS>\<Esc>"
  &l:undolevels = levels
enddef

def State(): dict<any>
  return {lines: getline(1, '$'), cursor: [line('.'), col('.')]}
enddef

def Generated(seed: number)
  var random = srand(seed)
  Form()
  ForgetHistory()
  Settle()
  var with = win_getid()
  var text = getline(1, '$')
  var cursor = [line('.'), col('.')]
  new
  setlocal buftype=nofile bufhidden=wipe noswapfile
  var without = win_getid()
  setline(1, text)
  ForgetHistory()
  cursor(cursor[0], cursor[1])
  var done: list<string> = []
  var resyncs = client.Resyncs()
  try
    for step in range(1, STEPS)
      var command = COMMANDS[rand(random) % len(COMMANDS)]
      add(done, strtrans(command))
      win_gotoid(with)
      Press(command)
      Settle()
      var got = State()
      var inSync = client.InSync(bufnr('%'))
      win_gotoid(without)
      Press(command)
      var want = State()
      var what = printf('seed %d, step %d (%s)', seed, step, join(done, ' '))
      H.Eq(want.lines, got.lines, 'lines after ' .. what)
      H.Eq(want.cursor, got.cursor, 'cursor after ' .. what)
      H.Eq(true, inSync, "the plugin's copy is the buffer after " .. what)
      H.Eq(resyncs, client.Resyncs(), 'buffers the plugin sent whole, after ' .. what)
    endfor
  finally
    win_gotoid(without)
    close!
  endtry
enddef

for seed in range(1, 8)
  H.Case(printf('seed %d: %d line commands keep the text and cursor plain Vim gives', seed, STEPS),
    function(Generated, [seed]))
endfor

# `p` of `ard: ` after the blank that follows a field: Vim leaves the cursor on the last
# character put, and the change starts where the listener says, after the blank (as ` ard:` at
# the field's end it would be typing into the field, and refused).
def PutAfterTheBlankAfterAField()
  Form()
  cursor(3, 2)
  Press('d2w')
  Settle()
  cursor(4, 11)
  Press('p')
  Settle()
  H.Eq(['Name: Bob', 'Tel: +1 (201) 555-0123', 'C3782 822463 10005', 'Exp: 12/29 ard: CVC: 123',
    'Note: call after 5'], getline(1, '$'), 'the lines')
  var spans = mapnew(fields.List(bufnr('%')), (_, f) => [f.range.start.line, f.range.start.character,
    f.range.end.character, f.text])
  H.Eq([[3, 5, 10, '12/29'], [3, 21, 24, '123']], filter(spans, (_, f) => f[0] == 3), 'the date and the code')
enddef

H.Case('p after the blank after a field puts the text there', PutAfterTheBlankAfterAField)

# Commands within lines, run with the cursor anywhere: those whose change lies within a field
# (typing into it, which maskd formats on purpose) are drawn again; every other change, and every
# undo and redo, must leave what plain Vim leaves.
const CHAR_COMMANDS = [
  'x', 'X', '~', 'r#', 'D', "C\<Esc>", 'dw', 'de', 'db', 'd2w', "cw\<Esc>", "s\<Esc>", "ix\<Esc>",
  "a;\<Esc>", 'yw', 'p', 'P', 'g~~', 'gUU', 'guu', 'J', 'u', 'u', "\<C-r>", 'g-', 'g+',
]
const UNDOS = ['u', "\<C-r>", 'g-', 'g+']

# The line and column (from 0) of byte `offset` of `text`.
def PlaceOf(text: string, offset: number): list<number>
  var before = strpart(text, 0, offset)
  return [count(before, "\n"), offset - strridx(before, "\n") - 1]
enddef

# Where `command`, with the cursor at `at` on `lines`, changes them: run on a copy in the current
# window and diffed as the plugin diffs (common prefix, then common suffix).
def ChangeOf(command: string, lines: list<string>, at: list<number>): dict<any>
  silent :%delete _
  setline(1, lines)
  cursor(at[0], at[1])
  Press(command)
  var old = join(lines, "\n")
  var new = join(getline(1, '$'), "\n")
  var p = 0
  while p < len(old) && p < len(new) && strpart(old, p, 1) == strpart(new, p, 1)
    p += 1
  endwhile
  var q = 0
  while q < len(old) - p && q < len(new) - p && strpart(old, len(old) - 1 - q, 1) == strpart(new, len(new) - 1 - q, 1)
    q += 1
  endwhile
  return {changed: old != new, from: PlaceOf(old, p), to: PlaceOf(old, len(old) - q),
    text: strpart(new, p, len(new) - q - p)}
enddef

# Whether `change` lies within one of the fields `states` (their boundaries included) on one
# line: typing into it.
def TypesInto(states: list<dict<any>>, change: dict<any>): bool
  if change.from[0] != change.to[0] || stridx(change.text, "\n") >= 0
    return false
  endif
  for s in states
    var r = s.range
    if r.start.line == change.from[0] && r.end.line == change.from[0]
        && r.start.character <= change.from[1] && change.to[1] <= r.end.character
      return true
    endif
  endfor
  return false
enddef

def GeneratedChars(seed: number)
  var random = srand(seed)
  Form()
  ForgetHistory()
  Settle()
  var bufnr = bufnr('%')
  var with = win_getid()
  var text = getline(1, '$')
  new
  setlocal buftype=nofile bufhidden=wipe noswapfile
  var without = win_getid()
  setline(1, text)
  ForgetHistory()
  new
  setlocal buftype=nofile bufhidden=wipe noswapfile
  var scratch = win_getid()
  var done: list<string> = []
  var resyncs = client.Resyncs()
  var step = 0
  try
    while step < STEPS
      var command = CHAR_COMMANDS[rand(random) % len(CHAR_COMMANDS)]
      var lines = getbufline(bufnr, 1, '$')
      var row = rand(random) % len(lines) + 1
      var col = rand(random) % max([len(lines[row - 1]), 1]) + 1
      if index(UNDOS, command) < 0
        win_gotoid(scratch)
        var change = ChangeOf(command, lines, [row, col])
        if change.changed && TypesInto(fields.List(bufnr), change)
          continue
        endif
      endif
      step += 1
      add(done, printf('%s@%d:%d', strtrans(command), row, col))
      win_gotoid(with)
      cursor(row, col)
      Press(command)
      Settle()
      var got = State()
      var inSync = client.InSync(bufnr)
      win_gotoid(without)
      cursor(row, col)
      Press(command)
      var want = State()
      var what = printf('seed %d, step %d (%s)', seed, step, join(done, ' '))
      H.Eq(want.lines, got.lines, 'lines after ' .. what)
      H.Eq(want.cursor, got.cursor, 'cursor after ' .. what)
      H.Eq(true, inSync, "the plugin's copy is the buffer after " .. what)
      H.Eq(resyncs, client.Resyncs(), 'buffers the plugin sent whole, after ' .. what)
    endwhile
  finally
    win_gotoid(scratch)
    close!
    win_gotoid(without)
    close!
  endtry
enddef

for seed in range(1, 8)
  H.Case(printf('seed %d: %d commands within lines keep the text and cursor plain Vim gives', seed, STEPS),
    function(GeneratedChars, [seed]))
endfor

H.Run()
