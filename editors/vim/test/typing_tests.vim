vim9script
# Typing into fields key by key in Insert mode against the real daemon, checking the text and
# the cursor after every keystroke: the scenarios of the Neovim plugin's typing_spec.lua.
#   MASKD=... vim -N -u NONE -i NONE -es -S test/typing_tests.vim </dev/null

import './helpers.vim' as H
import autoload '../autoload/maskd/fields.vim'

const PHONE = '+1 ([000]) [000]-[0000]'
const CARD = '[0000] [0000] [0000] [0000] [999]'

# The phone field after each of 5551234567, as [text, caret].
const PHONE_STATES = [
  ['+1 (5', 5],
  ['+1 (55', 6],
  ['+1 (555', 7],
  ['+1 (555) 1', 10],
  ['+1 (555) 12', 11],
  ['+1 (555) 123', 12],
  ['+1 (555) 123-4', 14],
  ['+1 (555) 123-45', 15],
  ['+1 (555) 123-456', 16],
  ['+1 (555) 123-4567', 17],
]

# Returns Insert() steps typing `chars`, one per character, expecting `states`.
def Steps(chars: string, states: list<list<any>>): list<list<any>>
  var steps: list<list<any>> = []
  var i = 0
  for ch in split(chars, '\zs')
    add(steps, [ch] + states[i])
    i += 1
  endfor
  return steps
enddef

# An empty line with an empty field on it.
def EmptyField(mask: string)
  H.Buffer([''])
  H.Command('MaskdField ' .. mask)
  H.Expect('', 0)
enddef

# A phone field holding 5551234567, left in Insert mode at its end (caret 17).
def FullPhone()
  EmptyField(PHONE)
  H.Type('5551234567', 'i')
  H.Eq('+1 (555) 123-4567', H.Line(), 'text')
  H.Eq(17, H.LastCaret(), 'caret')
enddef

# The daemon never answered the plugin's own edits, and every didFormat was used.
def NoEcho()
  var s = H.Stats()
  H.Eq(0, s.echo, 'didFormat notifications for the plugin''s own edits')
enddef

def TestPhoneTyped()
  EmptyField(PHONE)
  H.Insert(Steps('5551234567', PHONE_STATES), 'i')
  # <Esc> puts the cursor on the last character.
  H.Expect('+1 (555) 123-4567', 16, {mode: 'n'})
  H.Eq('maskd 5551234567 [valid]', maskd#commands#Status(), 'Status()')
  H.Eq(10, H.Stats().applied, 'didFormat notifications applied')
  NoEcho()
enddef
H.Case('US phone typed from empty', TestPhoneTyped)

def TestLazyLiterals()
  EmptyField(PHONE)
  H.Type('555', 'i')
  H.Eq('+1 (555', H.Line(), 'text')
  H.Eq(') ___-____', get(H.FirstField(), 'placeholder', ''), 'placeholder')
  H.Eq('maskd 555 [incomplete, next digit]', maskd#commands#Status(), 'Status()')
  if maskd#fields#CanShowPlaceholder()
    H.Eq([[1, 8, ') ___-____']], maskd#fields#Placeholders(bufnr('%')), 'placeholder text property')
  endif
  # A typed literal shows; backspace over it removes it again.
  var steps = [
    [')', '+1 (555)', 8],
    ["\<BS>", '+1 (555', 7],
  ]
  H.Insert(steps)
  NoEcho()
enddef
H.Case('lazy trailing literals and the placeholder', TestLazyLiterals)

def TestCardTyped()
  EmptyField(CARD)
  var digits = '4111111111111111123'
  var states: list<list<any>> = []
  var text = ''
  for i in range(len(digits))
    if i > 0 && i % 4 == 0
      text ..= ' '
    endif
    text ..= digits[i]
    add(states, [text, len(text)])
  endfor
  H.Insert(Steps(digits, states), 'i')
  # The mask is full: a twentieth digit changes nothing.
  H.Insert([['9', '4111 1111 1111 1111 123', 23]])
  NoEcho()
enddef
H.Case('card typed from empty', TestCardTyped)

def TestBackspaceAfterSeparator()
  FullPhone()
  var steps = [
    ["\<Left>\<Left>\<Left>\<Left>", '+1 (555) 123-4567', 13, {format: false}],
    ["\<BS>", '+1 (555) 124-567', 11],
    ["\<Left>\<Left>", '+1 (555) 124-567', 9, {format: false}],
    ["\<BS>", '+1 (551) 245-67', 6],
  ]
  H.Insert(steps)
  NoEcho()
enddef
H.Case('backspace right after a separator deletes the digit before it', TestBackspaceAfterSeparator)

def TestAlipayDeletion()
  FullPhone()
  var steps = [
    ["\<Left>\<Left>\<Left>", '+1 (555) 123-4567', 14, {format: false}],
    # The caret stays after the third entered digit, not after the dash that follows it.
    ["\<BS>", '+1 (555) 123-567', 12],
    ['9', '+1 (555) 123-9567', 14],
    ['8', '+1 (555) 123-9856', 15],
  ]
  H.Insert(steps)
  NoEcho()
enddef
H.Case('delete a digit in the middle and type the right one (the caret stays)', TestAlipayDeletion)

def TestPaste()
  EmptyField(PHONE)
  setreg('"', '+1 (555) 123-4567 ext', 'c')
  # CTRL-R CTRL-O inserts a register literally, as one change: a paste.
  H.Insert([["\<C-r>\<C-o>\"", '+1 (555) 123-4567', 17]], 'i')
  H.Eq(' ext', fields.Buf(bufnr('%')).last.rejected .. fields.Buf(bufnr('%')).last.overflow, 'rejected and overflow')
  NoEcho()
enddef
H.Case('paste into an empty field', TestPaste)

def TestRejectedLetter()
  EmptyField(PHONE)
  H.Type('555', 'i')
  var steps = [
    ['a', '+1 (555', 7],
    ['x', '+1 (555', 7],
    ['1', '+1 (555) 1', 10],
    ['Z', '+1 (555) 1', 10],
  ]
  H.Insert(steps)
  H.Eq('Z', fields.Buf(bufnr('%')).last.rejected, 'rejected')
  NoEcho()
enddef
H.Case('a rejected letter changes nothing', TestRejectedLetter)

def TestUndoNormalMode()
  EmptyField(PHONE)
  H.Type('555', 'i')
  H.Expect('+1 (555', 6, {mode: 'n'})
  # The didFormat for this keystroke is handled after <Esc>, in Normal mode.
  H.Normal("a1\<Esc>")
  H.Expect('+1 (555) 1', 9, {mode: 'n'})
  H.Normal('u')
  H.Expect('+1 (555', 6)
  H.Normal("\<C-r>")
  # A redo's cursor is where Vim puts it (the start of what it brought back): the plugin
  # moves nothing after an undo or a redo.
  H.Expect('+1 (555) 1', 7)
  NoEcho()
enddef
H.Case('u undoes a keystroke and its formatting together (Normal mode)', TestUndoNormalMode)

def TestUndoInsertMode()
  EmptyField(PHONE)
  var steps = Steps('555', PHONE_STATES) + [
    ["\<C-g>u", '+1 (555', 7, {format: false}],
    ['1', '+1 (555) 1', 10],
  ]
  H.Insert(steps, 'i')
  H.Expect('+1 (555) 1', 9, {mode: 'n'})
  H.Normal('u')
  H.Expect('+1 (555', 6)
  H.Normal('u')
  H.Expect('', 0)
  NoEcho()
enddef
H.Case('u undoes a keystroke and its formatting together (Insert mode)', TestUndoInsertMode)

def TestMaskChange()
  EmptyField(PHONE)
  var steps = Steps('5551', PHONE_STATES) + [
    ["\<Cmd>MaskdSetMask " .. CARD .. "\<CR>\<Cmd>call g:MaskdTestIdle()\<CR>", '5551', 4, {format: false}],
    ['2', '5551 2', 6],
    ['3', '5551 23', 7],
    ["\<Cmd>MaskdSetMask phone.us\<CR>\<Cmd>call g:MaskdTestIdle()\<CR>", '+1 (555) 123', 12, {format: false}],
    ['4', '+1 (555) 123-4', 14],
  ]
  H.Insert(steps, 'i')
  NoEcho()
enddef
H.Case('a mask change mid-input', TestMaskChange)

def TestMultibyteLine()
  H.Buffer(['名前: 😀'])
  # On the blank after the colon, the field opens right after it.
  cursor(1, 8)
  H.Command('MaskdField ' .. PHONE)
  H.Eq(['名前: 😀'], getline(1, '$'), 'buffer after opening')
  var states: list<list<any>> = []
  for [text, at] in PHONE_STATES
    add(states, ['名前: ' .. text .. '😀', 4 + at, {byte: 8 + at}])
  endfor
  cursor(1, 9)
  H.Insert(Steps('5551234567', states), 'i')
  var steps = [
    ["\<Left>\<Left>\<Left>", '名前: +1 (555) 123-4567😀', 18, {byte: 22, format: false}],
    ["\<BS>", '名前: +1 (555) 123-567😀', 16, {byte: 20}],
    ['9', '名前: +1 (555) 123-9567😀', 18, {byte: 22}],
    ["\<End>", '名前: +1 (555) 123-9567😀', 23, {byte: 29, format: false}],
    # Typing after the emoji is outside the field: nothing formats it.
    ['x', '名前: +1 (555) 123-9567😀x', 24, {byte: 30, format: false}],
  ]
  H.Insert(steps)
  NoEcho()
enddef
H.Case('a multibyte line: 名前: before the field, 😀 after it', TestMultibyteLine)

H.Run()
