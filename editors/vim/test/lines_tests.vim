vim9script
# Changes to a field's whole line, made with Normal-mode commands: `dd` and `u`, `S` and
# `cc` then typing, `J`, `p` of a yanked field line, and undo and redo through all of them.
# The text is always exactly what Vim's own command made, the cursor where Vim put it, and
# every state the person made stays reachable with `u` and CTRL-R.
#   MASKD=... vim -N -u NONE -i NONE -es -S test/lines_tests.vim </dev/null

import './helpers.vim' as H
import autoload '../autoload/maskd/client.vim'
import autoload '../autoload/maskd/fields.vim'

const TEL = 'Tel: +1 (201) 555-0123'
const CARD = 'Card: 3782 822463 10005'

# Sends what the listener holds and waits until the daemon has handled it: its answer to a
# request comes after the didFormat of every change before it.
def g:MaskdLinesSettle()
  client.Flush(bufnr('%'))
  fields.Fetch(bufnr('%'))
  H.Settle()
enddef

# Runs `keys` as typed, each Insert-mode character sent on its own, whatever the daemon
# answers, and waits until it has answered.
def Press(keys: string)
  feedkeys(keys, 'xt')
  g:MaskdLinesSettle()
enddef

# Types `text` in Insert mode after `enter`, one character at a time, and leaves with <Esc>.
def TypeAfter(enter: string, text: string)
  var keys = enter
  for ch in split(text, '\zs')
    keys ..= ch .. "\<Cmd>call g:MaskdLinesSettle()\<CR>"
  endfor
  Press(keys .. "\<Esc>")
enddef

# Checks the buffer's lines and the cursor (0-based line, byte column).
def Expect(want: list<string>, row: number, col: number, what: string)
  H.Eq(want, getline(1, '$'), 'lines after ' .. what)
  H.Eq([row, col], [line('.') - 1, col('.') - 1], 'cursor (line, column) after ' .. what)
  if client.Attached(bufnr('%'))
    H.Eq(true, client.InSync(bufnr('%')), "the plugin's copy is the buffer after " .. what)
  endif
enddef

# `Name: Bob` / `Tel: +1 (201) 555-0123` (a phone.us field after `Tel: `, typed) / a card
# line, in Normal mode on the field's line.
def Form()
  H.Buffer(['Name: Bob', 'Tel: ', CARD])
  cursor(2, 5)
  H.Command('MaskdField phone.us')
  H.Normal("a2015550123\<Esc>")
  Expect(['Name: Bob', TEL, CARD], 1, 21, 'typing the phone')
enddef

def TestDeleteLine()
  Form()
  Press('dd')
  Expect(['Name: Bob', CARD], 1, 0, 'dd')
  H.Eq([], fields.Placeholders(bufnr('%')), 'placeholders after dd')
  Press('u')
  Expect(['Name: Bob', TEL, CARD], 1, 0, 'u')
  Press("\<C-r>")
  Expect(['Name: Bob', CARD], 1, 0, 'CTRL-R')
  H.Eq([], fields.Placeholders(bufnr('%')), 'placeholders after CTRL-R')
  Press('u')
  Expect(['Name: Bob', TEL, CARD], 1, 0, 'u again')
  # The person's earlier states are all still there.
  Press('u')
  H.Eq(['Name: Bob', 'Tel: ', CARD], getline(1, '$'), 'u of the typing')
  Press("\<C-r>\<C-r>")
  H.Eq(['Name: Bob', CARD], getline(1, '$'), 'two CTRL-R')
enddef
H.Case('dd then u gives the line back exactly; the deleted field is not drawn', TestDeleteLine)

def TestDeleteHalfTypedLine()
  H.Buffer(['Name: Bob', 'Tel: ', CARD])
  cursor(2, 5)
  H.Command('MaskdField phone.us')
  H.Normal("a201\<Esc>")
  var typed = getline(2)
  H.Eq('Tel: +1 (201', typed, 'typed')
  H.Eq(1, len(fields.Placeholders(bufnr('%'))), 'placeholders of the half-typed field')
  # Waits for the didFormat alone (no maskd/fields): its `closed` is what forgets the field.
  H.Normal('dd')
  H.Eq(['Name: Bob', CARD], getline(1, '$'), 'lines after dd')
  H.Eq({}, fields.Buf(bufnr('%')).fields, 'fields after dd')
  H.Eq([], fields.Placeholders(bufnr('%')), 'placeholders after dd')
  Press('u')
  Expect(['Name: Bob', typed, CARD], 1, 0, 'u')
  H.Eq([], fields.Placeholders(bufnr('%')), 'placeholders after u: the line comes back as text')
enddef
H.Case('dd of a line with a half-typed field forgets it: no placeholder on the next line', TestDeleteHalfTypedLine)

def TestSubstituteLine()
  Form()
  TypeAfter('S', 'Hello world')
  Expect(['Name: Bob', 'Hello world', CARD], 1, 10, 'S and typing')
  Press('u')
  Expect(['Name: Bob', TEL, CARD], 1, 0, 'u')
  Press("\<C-r>")
  Expect(['Name: Bob', 'Hello world', CARD], 1, 0, 'CTRL-R')
enddef
H.Case('S on a field line then typing a sentence keeps every letter', TestSubstituteLine)

def TestChangeLine()
  Form()
  TypeAfter('cc', 'Fax 2015550199')
  Expect(['Name: Bob', 'Fax 2015550199', CARD], 1, 13, 'cc and typing')
  Press('u')
  Expect(['Name: Bob', TEL, CARD], 1, 0, 'u')
enddef
H.Case('cc on a field line then typing digits and letters keeps them as typed', TestChangeLine)

def TestJoin()
  Form()
  Press('J')
  Expect(['Name: Bob', TEL .. ' ' .. CARD], 1, 22, 'J on the field line')
  Press('u')
  Expect(['Name: Bob', TEL, CARD], 1, 21, 'u')
  Press('gg0J')
  Expect(['Name: Bob ' .. TEL, CARD], 0, 9, 'J onto the field line')
  Press('u')
  Expect(['Name: Bob', TEL, CARD], 0, 0, 'u')
  Press("\<C-r>")
  Expect(['Name: Bob ' .. TEL, CARD], 0, 0, 'CTRL-R')
enddef
H.Case('J joins the field line with the next and the line before with it', TestJoin)

def TestPutLine()
  Form()
  Press('yyp')
  Expect(['Name: Bob', TEL, TEL, CARD], 2, 0, 'p')
  Press('P')
  Expect(['Name: Bob', TEL, TEL, TEL, CARD], 2, 0, 'P')
  Press('u')
  Expect(['Name: Bob', TEL, TEL, CARD], 2, 0, 'u')
  Press('u')
  Expect(['Name: Bob', TEL, CARD], 1, 21, 'u again')
  Press("\<C-r>")
  Expect(['Name: Bob', TEL, TEL, CARD], 1, 21, 'CTRL-R')
enddef
H.Case('p of a yanked field line puts the same text; u and CTRL-R take it back and again', TestPutLine)

def TestDeleteEveryLine()
  Form()
  # Vim's buffer keeps one empty line, which its listener does not report as added.
  Press('ggdG')
  Expect([''], 0, 0, 'ggdG')
  Press('u')
  Expect(['Name: Bob', TEL, CARD], 0, 0, 'u')
  Press("\<C-r>")
  Expect([''], 0, 0, 'CTRL-R')
  Press('u')
  Expect(['Name: Bob', TEL, CARD], 0, 0, 'u again')
  # The only line deleted and put back above that empty line, in one command.
  Press('gg2dd')
  Press('ddP')
  Expect([CARD, ''], 0, 0, 'ddP of the only line')
  Press('u')
  H.Eq([''], getline(1, '$'), 'u of P')
  Press('u')
  H.Eq([CARD], getline(1, '$'), 'u of dd')
enddef
H.Case('deleting every line, putting and undoing keep the plugin in step', TestDeleteEveryLine)

def TestRedoAfterUndo()
  H.Buffer(['Name: Bob'])
  Press("oUK: \<Esc>")
  Expect(['Name: Bob', 'UK: '], 1, 3, 'oUK: <Esc>')
  H.Command('MaskdField phone GB')
  H.Normal("a02079460958\<Esc>")
  var typed = getline(2)
  H.Eq('UK: 020 7946 0958', typed, 'typed')
  Press('u')
  H.Eq(['Name: Bob', 'UK: '], getline(1, '$'), 'u')
  Press('u')
  H.Eq(['Name: Bob'], getline(1, '$'), 'u u')
  Press("\<C-r>")
  H.Eq(['Name: Bob', 'UK: '], getline(1, '$'), 'u u CTRL-R')
  Press("\<C-r>")
  H.Eq(['Name: Bob', typed], getline(1, '$'), 'u u CTRL-R CTRL-R')
  Press('uu')
  H.Eq(['Name: Bob'], getline(1, '$'), 'back to the start')
  Press("\<C-r>\<C-r>")
  H.Eq(['Name: Bob', typed], getline(1, '$'), 'forward to the end')
enddef
H.Case('u u CTRL-R CTRL-R after typing into a new line reaches every state', TestRedoAfterUndo)

H.Run()
