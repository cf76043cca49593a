vim9script
# Keeping the daemon's copy of a buffer equal to the buffer: edits of every shape outside
# and around a field, stale didFormat notifications, the plugin's own echo.
#   MASKD=... vim -N -u NONE -i NONE -es -S test/sync_tests.vim </dev/null

import './helpers.vim' as H
import autoload '../autoload/maskd/client.vim'
import autoload '../autoload/maskd/fields.vim'

const PHONE = '+1 ([000]) [000]-[0000]'

# Asks the daemon for the fields of the buffer and checks the first one's text and line.
def DaemonField(text: string, lnum: number)
  var reply = fields.Fetch(bufnr('%'))
  var list = get(reply, 'result', [])
  if type(list) != v:t_list || empty(list)
    H.Fail('maskd/fields: ' .. string(reply))
  endif
  H.Eq(text, list[0].text, "the daemon's field text")
  H.Eq(lnum - 1, list[0].range.start.line, "the daemon's field line")
  H.Eq(true, client.InSync(bufnr('%')), "the plugin's copy equals the buffer")
enddef

def TestLinesAround()
  H.Buffer(['Name: Ann', 'Tel: ', 'end'])
  cursor(2, 5)
  H.Command('MaskdField ' .. PHONE)
  H.Type('555', 'A')
  H.Eq('Tel: +1 (555', getline(2), 'line 2')
  # A line above: the field moves down with it; nothing is formatted.
  H.Normal("ggOHeader\<Esc>", {format: false})
  # The plugin learns where the field went without a didFormat.
  sleep 100m
  H.Eq(2, H.FirstField().range.start.line, 'the recorded field line')
  if fields.CanShowPlaceholder()
    H.Eq([[3, 13, ') ___-____']], fields.Placeholders(bufnr('%')), 'placeholder')
  endif
  DaemonField('+1 (555', 3)
  cursor(3, 1)
  H.Type('1', 'A')
  H.Eq('Tel: +1 (555) 1', getline(3), 'line 3')
  # Lines below and above go away.
  H.Normal('Gdd', {format: false})
  H.Normal('ggdd', {format: false})
  H.Eq(['Name: Ann', 'Tel: +1 (555) 1'], getline(1, '$'), 'buffer')
  DaemonField('+1 (555) 1', 2)
  # A change on every line at once.
  H.Command(':%s/Ann/Bob/')
  H.Command(':%s/^/> /')
  DaemonField('+1 (555) 1', 2)
  # Joining the lines puts text before the field on its line.
  H.Normal('ggJ', {format: false})
  H.Eq('> Name: Bob > Tel: +1 (555) 1', getline(1), 'joined')
  DaemonField('+1 (555) 1', 1)
  H.Type('2', 'A')
  H.Eq('> Name: Bob > Tel: +1 (555) 12', getline(1), 'typed after the join')
  # Enter at the field's end leaves the field as it is.
  H.Normal("A\<CR>next\<Esc>", {format: false})
  H.Eq(['> Name: Bob > Tel: +1 (555) 12', 'next'], getline(1, '$'), 'after Enter')
  DaemonField('+1 (555) 12', 1)
  H.Eq(0, H.Stats().echo, 'echo notifications')
enddef
H.Case('edits outside the field move it; the copies stay equal', TestLinesAround)

def TestStale()
  H.Buffer([''])
  H.Command('MaskdField ' .. PHONE)
  # Two keystrokes go out before the first answer is read: that answer is for a version
  # the buffer has left, and is dropped; the second one formats.
  var keys = "i5\<Cmd>call maskd#client#Flush(bufnr())\<CR>5\<Cmd>call maskd#client#Flush(bufnr())\<CR>"
  keys ..= "\<Cmd>call g:MaskdTestWait()\<CR>\<Cmd>call g:MaskdTestCaret()\<CR>\<Esc>"
  feedkeys(keys, 'xt')
  H.Settle()
  H.Eq('+1 (55', getline(1), 'text')
  H.Eq(6, H.LastCaret(), 'caret')
  var s = H.Stats()
  H.Eq(s.formats, s.applied + s.stale + s.echo, 'every didFormat counted once')
  H.Eq(1, s.stale, 'stale didFormat notifications')
  H.Eq(0, s.echo, 'echo notifications')
  H.Eq(true, client.InSync(bufnr('%')), 'in sync')
enddef
H.Case('a didFormat for a version the buffer has left is dropped', TestStale)

def TestTwoFields()
  H.Buffer(['Tel:  Card: '])
  cursor(1, 5)
  H.Command('MaskdField phone.us')
  cursor(1, 12)
  H.Command('MaskdField card')
  H.Eq(2, len(fields.List(bufnr('%'))), 'fields')
  H.Type('4111', 'A')
  H.Eq('Tel:  Card: 4111', getline(1), 'card typed')
  H.SetCaret(5)
  H.Type('555')
  H.Eq('Tel: +1 (555 Card: 4111', getline(1), 'phone typed')
  H.Eq('visa', get(fields.List(bufnr('%'))[1], 'brand', ''), 'brand')
enddef
H.Case('two fields on one line', TestTwoFields)

def TestDetach()
  H.Buffer([''])
  H.Command('MaskdField ' .. PHONE)
  var bufnr = bufnr('%')
  H.Eq(true, client.Attached(bufnr), 'attached')
  H.Buffer(['other'])
  H.Eq(false, client.Attached(bufnr), 'attached after the buffer is wiped')
  H.Eq([], fields.List(bufnr), 'fields of the wiped buffer')
enddef
H.Case('wiping a buffer closes its document', TestDetach)

H.Run()
