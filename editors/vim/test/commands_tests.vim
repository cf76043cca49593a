vim9script
# The commands: which range :MaskdField takes, how its argument names a mask, :MaskdClose,
# :MaskdInfo, :MaskdFields, completion, and what happens when something is wrong.
#   MASKD=... vim -N -u NONE -i NONE -es -S test/commands_tests.vim </dev/null

import './helpers.vim' as H
import autoload '../autoload/maskd/client.vim'
import autoload '../autoload/maskd/commands.vim'
import autoload '../autoload/maskd/fields.vim'

# Returns the messages the commands gave since the last call.
def Messages(): list<string>
  var got = filter(split(execute('messages'), "\n"), (_, l) => l =~ '^maskd')
  messages clear
  return got
enddef

def TestVisualRange()
  H.Buffer(['Card: 4111111111111111 ok'])
  # Select the digits, then run the command on the selection.
  cursor(1, 7)
  H.Normal("v15l\<Esc>", {format: false})
  H.Command(":'<,'>MaskdField card")
  H.Eq('Card: 4111 1111 1111 1111 ok', getline(1), 'text')
  var s = H.FirstField()
  H.Eq('visa', get(s, 'brand', ''), 'brand')
  H.Eq(true, get(s, 'valid', false), 'valid')
  H.Eq('maskd visa 4111111111111111 [valid]', maskd#commands#Status(), 'Status() in the field')
  cursor(1, 1)
  H.Eq('', maskd#commands#Status(), 'Status() outside the field')
enddef
H.Case(':MaskdField on a Visual selection formats it', TestVisualRange)

def TestWordRange()
  H.Buffer(['Date: 20240229 then'])
  cursor(1, 10)
  H.Command('MaskdField date')
  H.Eq('Date: 2024-02-29 then', getline(1), 'the word under the cursor')
  H.Buffer(['Tel: '])
  cursor(1, 5)
  # On a blank: an empty field right after it.
  H.Command('MaskdField phone.us')
  H.Eq({start: {line: 0, character: 5}, end: {line: 0, character: 5}}, H.FirstField().range, 'range')
  # Formatted text around the word is taken whole, the label left out (the daemon decides).
  H.Buffer(['Tel: +1 (555) 123-4567 x'])
  cursor(1, 11)
  H.Command('MaskdField phone.us')
  H.Eq({start: {line: 0, character: 5}, end: {line: 0, character: 22}}, H.FirstField().range, 'the widest run')
  H.Eq('Tel: +1 (555) 123-4567 x', getline(1), 'text unchanged')
enddef
H.Case(':MaskdField without a range takes the word under the cursor', TestWordRange)

def TestLineRange()
  H.Buffer(['Tel: 5551234567', '  2015550123  ', '', '   ', '3125550199'])
  H.Command(':2,5MaskdField phone.us')
  H.Eq(['Tel: 5551234567', '  +1 (201) 555-0123  ', '', '   ', '+1 (312) 555-0199'], getline(1, '$'),
    'a field on each line with text, the blanks around it left out')
  H.Eq(2, len(fields.List(bufnr('%'))), 'two fields')
enddef
H.Case(':MaskdField over lines: the daemon splits the range', TestLineRange)

def TestCompleteStartsTheDaemon()
  client.Stop()
  H.Eq(['phone', 'phone.cn', 'phone.us'], commands.Complete('ph', 'MaskdField ph', 13),
    "the daemon's presets, from its initialize result")
  H.Eq(true, client.Running(), 'completion started the daemon')
enddef
H.Case('completion before the daemon runs starts it', TestCompleteStartsTheDaemon)

def TestMaskForms()
  H.Buffer(['123456'])
  H.Command('MaskdField {"groups": [3, 3], "separator": "-"}')
  H.Eq('123-456', getline(1), 'a JSON MaskSpec')
  H.Buffer(['1234'])
  H.Command('MaskdField [00]{.}[00]')
  H.Eq('12.34', getline(1), 'bracket notation')
  g:maskd_presets = {pin: '[0000]-[00]'}
  H.Buffer(['123456'])
  H.Command('MaskdField pin')
  H.Eq('1234-56', getline(1), 'a preset of g:maskd_presets')
  unlet g:maskd_presets
enddef
H.Case(':MaskdField takes presets, bracket notation and JSON', TestMaskForms)

def TestComplete()
  var names = commands.Complete('ph', 'MaskdField ph', 13)
  H.Eq(['phone', 'phone.cn', 'phone.us'], names, 'completion of "ph"')
  g:maskd_presets = {phoenix: '[00]'}
  H.Eq(['phoenix', 'phone', 'phone.cn', 'phone.us'], commands.Complete('ph', '', 0), 'own presets first')
  unlet g:maskd_presets
  H.Eq(true, index(getcompletion('MaskdField ca', 'cmdline'), 'card') >= 0, 'getcompletion()')
  H.Eq(['GA', 'GB', 'GD', 'GE', 'GF', 'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GT', 'GU', 'GW', 'GY'],
    commands.Complete('G', 'MaskdField phone G', 18), 'region codes after phone')
  H.Eq({preset: 'phone', region: 'GB'}, commands.Resolve('phone gb'), 'phone with a region')
  H.Eq(['GB', 'GE', 'GF', 'GG', 'GI', 'GL', 'GN', 'GP', 'GR', 'GS', 'GT', 'GU', 'GW'],
    commands.Complete('g', 'MaskdField postal g', 19), 'the postal preset\''s region codes after postal')
  H.Eq({preset: 'postal', region: 'GB'}, commands.Resolve('postal gb'), 'postal with a region')
  H.Buffer(['sw1a1aa'])
  H.Command('MaskdField postal GB')
  H.Eq('SW1A 1AA', getline(1), 'a postal field opened from the command')
enddef
H.Case('preset names complete', TestComplete)

def TestBadMask()
  H.Buffer(['x'])
  messages clear
  H.Command('MaskdField [00')
  var got = Messages()
  H.Eq(1, len(got), 'messages: ' .. string(got))
  H.Eq(true, got[0] =~ '^maskd: .*' && got[0] =~ 'offset\|bracket\|\[', 'the message names the problem: ' .. got[0])
  H.Eq([], fields.List(bufnr('%')), 'fields')
  H.Eq(['x'], getline(1, '$'), 'text')
enddef
H.Case('a malformed mask is an error message and no field', TestBadMask)

def TestCloseAndInfo()
  H.Buffer([''])
  H.Command('MaskdField phone.us')
  H.Type('555', 'i')
  messages clear
  var columns = &columns
  set columns=120
  H.Command('MaskdInfo')
  H.Eq(['maskd f1: 555 [incomplete, next digit]  to fill ) ___-____  mask +1 ([000]) [000]-[0000]'], Messages(), ':MaskdInfo')
  # Narrower: still one line that fits, so there is no hit-enter prompt.
  set columns=50
  H.Command('MaskdInfo')
  var narrow = Messages()
  &columns = columns
  H.Eq(1, len(narrow), 'lines of :MaskdInfo at 50 columns')
  H.Eq(true, strdisplaywidth(narrow[0]) < 50 && narrow[0] =~ '^maskd f1: 555 \[incomplete.*…$', 'fits: ' .. narrow[0])
  H.Command('MaskdFields')
  var qf = getqflist()
  H.Eq(1, len(qf), 'quickfix entries')
  H.Eq('+1 (555  555 [incomplete, next digit]  (+1 ([000]) [000]-[0000])', get(get(qf, 0, {}), 'text', ''), 'quickfix text')
  cclose
  H.Command('MaskdClose')
  H.Eq([], fields.List(bufnr('%')), 'fields after :MaskdClose')
  if fields.CanShowPlaceholder()
    H.Eq([], fields.Placeholders(bufnr('%')), 'placeholders after :MaskdClose')
  endif
  # The text stays, and typing is no longer formatted.
  H.Normal("A1\<Esc>", {format: false})
  H.Eq('+1 (5551', getline(1), 'text after typing')
  messages clear
  H.Command('MaskdClose')
  H.Eq(['maskd: no field under the cursor'], Messages(), ':MaskdClose without a field')
enddef
H.Case(':MaskdInfo, :MaskdFields and :MaskdClose', TestCloseAndInfo)

def TestClosePads()
  H.Buffer([''])
  H.Command('MaskdField {"number": {"group": ",", "decimal": ".", "fraction": 2, "padFraction": true}}')
  H.Type('1234.5', 'i')
  H.Eq('1,234.5', getline(1), 'typed')
  var applied = H.Stats().applied
  # Closed from Insert mode at the end of the number: the pad comes before the reply, the
  # caret goes after it, and its echo gets no didFormat (format: false checks none comes).
  H.Insert([
    ["\<Cmd>MaskdClose\<CR>\<Cmd>call g:MaskdTestIdle()\<CR>", '1,234.50', 8, {format: false}],
    ['7', '1,234.507', 9, {format: false}],
  ])
  H.Eq(applied + 1, H.Stats().applied, 'the closing didFormat applied')
  H.Eq([], fields.List(bufnr('%')), 'fields after :MaskdClose')
  # In Normal mode on the last digit of `12`, the caret stays on it.
  H.Buffer([''])
  H.Command('MaskdField {"number": {"fraction": 2, "padFraction": true}}')
  H.Type('12', 'i')
  H.Eq(1, H.Caret(), 'caret on the 2')
  H.Command('MaskdClose')
  H.Eq('12.00', getline(1), 'closed')
  H.Eq(1, H.Caret(), 'caret after closing')
  H.Eq([], fields.List(bufnr('%')), 'fields after :MaskdClose')
enddef
H.Case(':MaskdClose pads a padFraction number: 1,234.5 becomes 1,234.50', TestClosePads)

def TestNoDaemon()
  client.Stop()
  var saved = g:maskd_cmd
  g:maskd_cmd = ['/nonexistent/maskd']
  H.Buffer([''])
  messages clear
  H.Command('MaskdField phone.us')
  var got = Messages()
  g:maskd_cmd = saved
  H.Eq(true, !empty(got) && got[0] =~ 'cannot run', 'message: ' .. string(got))
  H.Eq(false, client.Running(), 'running')
  # With the command fixed, the next field starts it.
  H.Command('MaskdField phone.us')
  H.Eq(true, client.Running(), 'running after the fix')
  H.Type('5', 'i')
  H.Eq('+1 (5', getline(1), 'typed')
enddef
H.Case('a missing daemon is a message, and the next command starts it', TestNoDaemon)

def TestDaemonExit()
  H.Buffer([''])
  H.Command('MaskdField phone.us')
  var bufnr = bufnr('%')
  client.ForgetRestarts()
  var old = job_info()->filter((_, j) => job_info(j).cmd == g:maskd_cmd && job_status(j) == 'run')[0]
  job_stop(old)
  var waited = 0
  while (job_status(old) == 'run' || !client.Running() || fields.Buf(bufnr).stats.reopened == 0) && waited < 5000
    sleep 1m
    waited += 1
  endwhile
  # A new daemon has the buffer and its field: typing formats.
  H.Eq(true, client.Running(), 'running after the daemon was stopped')
  H.Eq(true, client.Attached(bufnr), 'attached')
  H.Type('5', 'i')
  H.Eq('+1 (5', getline(1), 'typed')
  var errors = client.Log().errors
  H.Eq(true, !empty(errors) && errors[-1] =~ 'stopped', 'the exit is reported: ' .. string(errors))
enddef
H.Case('the daemon going away: a new one takes the buffers and their fields', TestDaemonExit)

def TestSourcedTwice()
  # Vim sources plugin/ itself after a vimrc that sourced it: the commands must survive.
  execute 'source ' .. fnameescape(H.PLUGIN_DIR .. '/plugin/maskd.vim')
  H.Buffer(['4111111111111111'])
  # As typed on the command line.
  feedkeys(":MaskdField card\<CR>", 'xt')
  H.Idle()
  H.Settle()
  H.Eq('4111 1111 1111 1111', getline(1), 'text')
enddef
H.Case('the plugin sourced a second time', TestSourcedTwice)

def TestHelp()
  # The help file's tags, built in a copy so the repository is left as it is.
  var dir = tempname()
  mkdir(dir .. '/doc', 'p')
  writefile(readfile(H.PLUGIN_DIR .. '/doc/maskd.txt'), dir .. '/doc/maskd.txt')
  execute 'helptags ' .. fnameescape(dir .. '/doc')
  execute 'set runtimepath+=' .. fnameescape(dir)
  for tag in ['maskd', ':MaskdField', ':MaskdSetMask', ':MaskdClose', ':MaskdInfo', ':MaskdFields',
      'g:maskd_cmd', 'g:maskd_presets', 'maskd#commands#Status()', 'maskd-limitations', 'maskd-restart',
      'g:maskd_insert_on_open']
    execute 'help ' .. tag
    H.Eq('maskd.txt', expand('%:t'), ':help ' .. tag)
    helpclose
  endfor
  delete(dir, 'rf')
enddef
H.Case(':help maskd and its tags', TestHelp)

H.Run()
