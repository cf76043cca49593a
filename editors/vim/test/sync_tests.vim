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

def TestStaleJunkResynced()
  H.Buffer([''])
  H.Command('MaskdField ' .. PHONE)
  H.Type('5551234567', 'i')
  H.Eq('+1 (555) 123-4567', getline(1), 'typed')
  # Junk after the full number, each key sent before the answer to the one before: every
  # didFormat but the last is stale and dropped, and the daemon formats the field whole in
  # the last one, so the junk of the dropped ones goes with it, the caret at the field's end.
  # Once nothing is on its way (Await()), the plugin reads the field again with
  # rangeFormatting: nothing is left to bring into form.
  var flush = "\<Cmd>call maskd#client#Flush(bufnr())\<CR>"
  var keys = "A " .. flush .. "e" .. flush .. "x" .. flush
  keys ..= "\<Cmd>call g:MaskdTestWait()\<CR>\<Cmd>call maskd#client#Await(bufnr())\<CR>"
  keys ..= "\<Cmd>call g:MaskdTestCaret()\<CR>\<Esc>"
  feedkeys(keys, 'xt')
  H.Settle()
  H.Eq('+1 (555) 123-4567', getline(1), 'text')
  H.Eq(17, H.LastCaret(), 'caret')
  var s = H.Stats()
  H.Eq(2, s.stale, 'stale didFormat notifications')
  H.Eq(0, s.resynced, 'fields the plugin had to bring into form again')
  H.Eq(0, s.echo, 'echo notifications')
  H.Eq(true, client.InSync(bufnr('%')), 'in sync')
  # Typing goes on as usual, and u takes the junk and its removal together.
  H.Normal('u', {format: false})
  H.Eq('+1 (555) 123-4567', getline(1), 'after u')
enddef
H.Case('dropped didFormat notifications: the last one takes their junk out', TestStaleJunkResynced)

# Returns the versions of the didChange and didFormat notifications in the trace file
# `path` (g:maskd_trace), in order: {didChange: [...], didFormat: [...]}.
def Traced(path: string): dict<list<number>>
  var got: dict<list<number>> = {didChange: [], didFormat: []}
  for line in readfile(path)
    var msg = json_decode(matchstr(line, '^\S\+ \zs.*'))
    var method = type(msg) == v:t_dict ? get(msg, 'method', '') : ''
    if method == 'textDocument/didChange'
      add(got.didChange, msg.params.textDocument.version)
    elseif method == 'maskd/didFormat'
      add(got.didFormat, msg.params.textDocument.version)
    endif
  endfor
  return got
enddef

def TestEchoNoLoop()
  H.Buffer([''])
  H.Command('MaskdField ' .. PHONE)
  var saved = get(g:, 'maskd_trace', '')
  var trace = tempname()
  g:maskd_trace = trace
  try
    H.Type('5551234567', 'i')
    # Time for a didFormat answering an echo, were one to come.
    sleep 100m
  finally
    g:maskd_trace = saved
  endtry
  H.Eq('+1 (555) 123-4567', getline(1), 'typed')
  var n = Traced(trace)
  delete(trace)
  # One didFormat per key, each for the version of that key's didChange; the three with
  # edits ("+1 (", ") ", "-") each made one more didChange, the echo, which nothing
  # answered.
  H.Eq(10, len(n.didFormat), 'didFormat notifications received')
  H.Eq(10 + 3, len(n.didChange), 'didChange notifications sent (10 keys and 3 echoes)')
  var echoes = filter(copy(n.didChange), (_, v) => index(n.didFormat, v) < 0)
  H.Eq(3, len(echoes), 'didChange notifications no didFormat answered')
  H.Eq([10, 0, 0], [H.Stats().applied, H.Stats().stale, H.Stats().echo], 'applied, stale, echo')
enddef
H.Case("the daemon's echo brings no didFormat and no loop", TestEchoNoLoop)

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
