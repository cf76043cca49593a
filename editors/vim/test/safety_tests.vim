vim9script
# Nothing the person typed is lost: undo after typing in a field, undo of an open, a field
# the cursor stands next to, a refused open, and the daemon dying under the fields.
#   MASKD=... vim -N -u NONE -i NONE -es -S test/safety_tests.vim </dev/null

import './helpers.vim' as H
import autoload '../autoload/maskd/client.vim'
import autoload '../autoload/maskd/fields.vim'
import autoload '../autoload/maskd/commands.vim'

# Returns the messages the plugin gave since the last call.
def Messages(): list<string>
  var got = filter(split(execute('messages'), "\n"), (_, l) => l =~ '^maskd')
  messages clear
  return got
enddef

def TestUndoAfterLabel()
  H.Buffer(['Tel: '])
  normal! $
  H.Command('MaskdField phone.us')
  H.Normal("a555\<Esc>")
  H.Eq('Tel: +1 (555', getline(1), 'typed')
  H.Normal('u')
  H.Expect('Tel: ', 4)
  # The daemon's copy is the buffer's: typing again formats from the empty field.
  H.Normal("a5\<Esc>")
  H.Eq('Tel: +1 (5', getline(1), 'typed again')
enddef
H.Case('u after typing into a field after a label gives back the line as it was', TestUndoAfterLabel)

def TestUndoOfOpen()
  H.Buffer(['call 5551234567 now'])
  cursor(1, 8)
  H.Command('MaskdField phone.us')
  H.Eq('call +1 (555) 123-4567 now', getline(1), 'opened')
  H.Normal('u', {format: false})
  H.Eq('call 5551234567 now', getline(1), 'after u')
  sleep 100m
  H.Eq('call 5551234567 now', getline(1), 'nothing formats it again')
  H.Eq([], fields.List(bufnr('%')), 'recorded fields')
  H.Eq([], get(fields.Fetch(bufnr('%')), 'result', null), "the daemon's fields")
  cursor(1, 15)
  H.Normal("a8\<Esc>", {format: false})
  H.Eq('call 55512345678 now', getline(1), 'plain typing')
enddef
H.Case('u right after an open closes the field and gives back the text', TestUndoOfOpen)

def TestFieldNextToCursor()
  H.Buffer(['Phone: '])
  normal! $
  H.Command('MaskdField phone.us')
  H.Eq('maskd (empty) [incomplete, next digit]', maskd#commands#Status(), 'Status()')
  messages clear
  H.Command('MaskdInfo')
  var info = Messages()
  H.Eq(true, len(info) == 1 && info[0] =~ '^maskd f\d\+: (empty) \[incomplete', ':MaskdInfo: ' .. string(info))
  H.Command('MaskdSetMask card')
  H.Eq('[0000] [0000] [0000] [0000] [999]', get(H.FirstField(), 'mask', ''), 'mask after :MaskdSetMask card')
  H.Command('MaskdClose')
  H.Eq([], fields.List(bufnr('%')), 'fields after :MaskdClose')
  H.Eq([], Messages(), 'messages')
enddef
H.Case('the field right after the cursor is found (empty, after a label)', TestFieldNextToCursor)

def TestEmptyFieldInsert()
  H.Buffer(['Phone: '])
  normal! $
  # As a person types it: the command, then the digits, with no key to enter Insert mode.
  g:maskd_insert_on_open = true
  try
    H.Insert([['5', 'Phone: +1 (5', 12], ['5', 'Phone: +1 (55', 13]], ":MaskdField phone.us\<CR>\<Cmd>call g:MaskdTestIdle()\<CR>")
  finally
    g:maskd_insert_on_open = false
  endtry
enddef
H.Case('an empty field opened from Normal mode puts the cursor in it, in Insert mode', TestEmptyFieldInsert)

def TestUnknownPreset()
  H.Buffer(['5551234567'])
  messages clear
  H.Command('MaskdField phone.uk')
  var got = Messages()
  H.Eq(1, len(got), 'messages: ' .. string(got))
  H.Eq(true, got[0] =~ "^maskd: unknown preset 'phone.uk' (presets: .*phone.us", 'message: ' .. got[0])
  H.Eq(['5551234567'], getline(1, '$'), 'text')
  H.Eq([], fields.List(bufnr('%')), 'fields')
enddef
H.Case('a bare word that is no preset: unknown preset, and the presets listed', TestUnknownPreset)

def TestRefusedOpen()
  H.Buffer(['Phone: 5551234567'])
  cursor(1, 1)
  messages clear
  H.Command('MaskdField phone.us')
  var got = Messages()
  H.Eq(1, len(got), 'messages: ' .. string(got))
  H.Eq(true, got[0] =~ '^maskd: .*Phone:.*phone.us', 'the message names what would be lost: ' .. got[0])
  H.Eq(['Phone: 5551234567'], getline(1, '$'), 'text')
  H.Eq([], fields.List(bufnr('%')), 'fields')
  H.Command('MaskdField! phone.us')
  H.Eq(1, len(fields.List(bufnr('%'))), 'forced open')
  H.Normal('u', {format: false})
  H.Eq(['Phone: 5551234567'], getline(1, '$'), 'u gives the label back')
  sleep 100m
  H.Eq(['Phone: 5551234567'], getline(1, '$'), 'and it stays')
enddef
H.Case('an open that would drop the label is refused with its reason; ! forces it', TestRefusedOpen)

def TestFormattedTextTakenWhole()
  H.Buffer(['Tel: +1 (5551234567 home'])
  cursor(1, 11)
  H.Command('MaskdField phone.us')
  H.Eq('Tel: +1 (555) 123-4567 home', getline(1), 'the whole formatted text, not half of it')
enddef
H.Case('opening over formatted text takes all of it', TestFormattedTextTakenWhole)

def TestManyLines()
  var text: list<string> = []
  for i in range(1, 1000)
    add(text, printf('%03d5551234', i % 1000))
  endfor
  H.Buffer(text)
  var started = reltime()
  H.Normal("ggVG\<Esc>", {format: false})
  H.Command(":'<,'>MaskdField phone.us")
  H.Out(printf('      1,000 fields opened in %.0f ms', reltimefloat(reltime(started)) * 1000))
  H.Eq(1000, len(fields.List(bufnr('%'))), 'fields')
  H.Eq('+1 (001) 555-1234', getline(1), 'line 1')
  H.Eq('+1 (500) 555-1234', getline(500), 'line 500')
  H.Eq('+1 (000) 555-1234', getline(1000), 'line 1000')
  cursor(500, 1)
  H.SetCaret(17)
  H.Insert([["\<BS>", '+1 (500) 555-123', 16, {lnum: 500}], ['9', '+1 (500) 555-1239', 17, {lnum: 500}]])
enddef
H.Case(":'<,'>MaskdField over 1,000 lines: a field on each, typing in line 500 formatted", TestManyLines)

# Returns the process id of the running daemon.
def DaemonPid(): number
  var jobs = filter(job_info(), (_, j) => job_info(j).cmd == g:maskd_cmd && job_status(j) == 'run')
  return empty(jobs) ? -1 : job_info(jobs[0]).process
enddef

# Waits until `Cond()` is true (at most 5 s), failing with `what`.
def WaitFor(Cond: func(): bool, what: string)
  var waited = 0
  while !Cond() && waited < 5000
    sleep 2m
    waited += 2
  endwhile
  if !Cond()
    H.Fail('timed out waiting for ' .. what)
  endif
enddef

def TestKilledMidTyping()
  H.Buffer(['card 4111111111111111', 'Tel: '])
  var bufnr = bufnr('%')
  cursor(1, 7)
  H.Command('MaskdField card')
  cursor(2, 5)
  H.Command('MaskdField phone.us')
  H.Type('555', 'a')
  H.Eq('Tel: +1 (555', getline(2), 'typed')
  var pid = DaemonPid()
  messages clear
  system('kill -9 ' .. pid)
  # Typed on at once, as if nothing happened: Vim notices the exit while the keys come.
  feedkeys("A1234567\<Esc>", 'xt')
  WaitFor(() => fields.Buf(bufnr).stats.reopened >= 1, 'the fields to open again')
  H.Settle()
  H.Eq(['card 4111 1111 1111 1111', 'Tel: +1 (555) 123-4567'], getline(1, '$'), 'text')
  H.Eq(true, DaemonPid() != pid && DaemonPid() > 0, 'a new daemon')
  var got = Messages()
  H.Eq(1, len(got), 'exactly one message: ' .. string(got))
  H.Eq(true, got[0] =~ '^maskd: the daemon stopped (killed); restarted it, fields kept$', 'the message: ' .. got[0])
  # Both are fields again: typing formats, and the card is found.
  H.Insert([["\<BS>", 'Tel: +1 (555) 123-456', 21, {lnum: 2}]], 'A')
  cursor(1, 9)
  H.Eq('visa', get(get(fields.Hints(bufnr, fields.CursorPosition()), 'result', {}), 'brand', ''), 'the card after the restart')
enddef
H.Case('the daemon killed mid-typing: restarted, fields back, what was typed formatted', TestKilledMidTyping)

# The daemon killed between two keys of one Insert-mode session, and the keys after the kill
# meet the new daemon's reopen at one of four moments, `when`:
#   'unnoticed'  typed before Vim has noticed the death (they go nowhere, the ranges follow them);
#   'answered'   typed once the reopen's answer has been applied;
#   'unsent'     typed while the reopen's answer is on its way, and the answer read before
#                Vim has reported them to the plugin (so before any didChange of them);
#   'sent'       typed while the answer is on its way and sent before it is read.
# The last two are made in the restart itself (see TypeOnRestart()): a timer, an autocmd or a
# wait would decide the order otherwise, which the machine's load does.
# Whatever the moment, the text ends as if the daemon had never died, the caret after it.
var type_on_restart = ''
var type_on_restart_problem = ''
# For 'unsent': whether the digits are typed and not yet sent.
var digits_unsent = false

# Called by the restart once the new daemon has the text and the reopen's request has gone:
# types the digits (as Insert mode does, the caret after them), and sends them at once when
# `type_on_restart` is 'sent'.  Otherwise they wait in Vim's listener queue (nothing reports
# them before a redraw, a flush or an autocmd; a test in -es mode never redraws), and the
# sleep of g:MaskdTestAwaitReopen() reads the reopen's answer.
def TypeOnRestart(p: dict<any>)
  var how = type_on_restart
  type_on_restart = ''
  if how == '' || p.bufnr != bufnr('%')
    return
  endif
  var text = getline(1) .. '1234567'
  setline(1, text)
  cursor(1, len(text) + 1)
  if how == 'sent'
    var before = client.Version(p.bufnr)
    client.Flush(p.bufnr)
    if client.Version(p.bufnr) == before || !client.Busy()
      type_on_restart_problem = 'the digits did not go out before the answer'
    endif
  else
    digits_unsent = true
  endif
enddef
# fields.vim registers its own handler when it loads (an autoload import loads on first
# use): loaded first, it reopens the fields before this types.
fields.Buf(-1)
client.On('restarted', TypeOnRestart)

# The first didChange after the digits were typed for 'unsent': the reopen's answer must
# have come first (what its handler sends out first), or the case is not the one it names.
def DigitsSending(p: dict<any>)
  if digits_unsent
    digits_unsent = false
    if client.Busy()
      type_on_restart_problem = "the digits went out before the reopen's answer was read"
    endif
  endif
enddef
client.On('sending', DigitsSending)

# Waits (in a <Cmd> of the Insert-mode keys) until the fields have been opened again.
def g:MaskdTestAwaitReopen()
  var bufnr = bufnr('%')
  var waited = 0
  while fields.Buf(bufnr).stats.reopened < 1 && waited < 10000
    sleep 2m
    waited += 2
  endwhile
enddef

var in_insert: list<any> = []

# Waits (in a <Cmd> of the Insert-mode keys) until line 1 is `want`, the plugin's copy is
# the buffer and no answer is on its way, and records the line, the caret and the mode.
def g:MaskdTestAwaitText(want: string)
  var bufnr = bufnr('%')
  var waited = 0
  while (getline(1) !=# want || !client.InSync(bufnr) || client.Busy()) && waited < 10000
    sleep 2m
    waited += 2
  endwhile
  in_insert = [getline(1), H.Caret(), mode()]
enddef

def KilledBetweenKeys(when: string)
  H.Buffer(['Tel: '])
  var bufnr = bufnr('%')
  cursor(1, 5)
  H.Command('MaskdField phone.us')
  var pid = DaemonPid()
  # Four of these in a row would use up the restarts of a minute.
  client.ForgetRestarts()
  messages clear
  type_on_restart = when == 'unsent' || when == 'sent' ? when : ''
  type_on_restart_problem = ''
  digits_unsent = false
  in_insert = []
  var kill = "\<Cmd>call system('kill -9 " .. pid .. "')\<CR>"
  var keys = when == 'unnoticed' ? kill .. '1234567'
    : when == 'answered' ? kill .. "\<Cmd>call g:MaskdTestAwaitReopen()\<CR>1234567"
    : kill .. "\<Cmd>call g:MaskdTestAwaitReopen()\<CR>"
  const want = 'Tel: +1 (555) 123-4567'
  try
    feedkeys('A555' .. keys .. "\<Cmd>call g:MaskdTestAwaitText('" .. want .. "')\<CR>", 'xt')
  finally
    type_on_restart = ''
  endtry
  H.Eq('', type_on_restart_problem, 'the moment the digits were typed at')
  H.Eq(true, fields.Buf(bufnr).stats.reopened >= 1, 'the fields opened again')
  H.Eq([want, 22, 'i'], in_insert, 'the line, the caret and the mode before leaving Insert mode')
  # feedkeys() has left Insert mode: the cursor is on the last character.
  H.Expect(want, 21)
  H.Eq(true, DaemonPid() != pid && DaemonPid() > 0, 'a new daemon')
  H.Eq(1, len(Messages()), 'one message')
  # Still a field: typing formats.
  H.Insert([["\<BS>", 'Tel: +1 (555) 123-456', 21], ['7', want, 22]], 'A')
enddef

def TestKilledBetweenKeysUnnoticed()
  KilledBetweenKeys('unnoticed')
enddef
H.Case('the daemon killed between two keys in Insert mode, the next keys typed before Vim notices', TestKilledBetweenKeysUnnoticed)

def TestKilledBetweenKeysAnswered()
  KilledBetweenKeys('answered')
enddef
H.Case("the daemon killed between two keys in Insert mode, the next keys typed after the reopen's answer", TestKilledBetweenKeysAnswered)

def TestKilledBetweenKeysUnsent()
  KilledBetweenKeys('unsent')
enddef
H.Case("the daemon killed between two keys in Insert mode, the next keys typed and unsent when the reopen's answer comes", TestKilledBetweenKeysUnsent)

def TestKilledBetweenKeysSent()
  KilledBetweenKeys('sent')
enddef
H.Case("the daemon killed between two keys in Insert mode, the next keys sent before the reopen's answer comes", TestKilledBetweenKeysSent)

def TestDiesAtStartUp()
  client.Stop()
  var saved = g:maskd_cmd
  g:maskd_cmd = ['sh', '-c', 'exit 3']
  H.Buffer([''])
  messages clear
  H.Command('MaskdField phone.us')
  sleep 300m
  var got = Messages()
  g:maskd_cmd = saved
  H.Eq(1, len(got), 'messages: ' .. string(got))
  H.Eq(false, client.Running(), 'running')
  H.Eq(0, len(filter(job_info(), (_, j) => job_status(j) == 'run' && job_info(j).cmd == ['sh', '-c', 'exit 3'])), 'no restart')
enddef
H.Case('a daemon that dies at start-up: one message, no restart loop', TestDiesAtStartUp)

def TestKeepsDying()
  H.Buffer([''])
  var bufnr = bufnr('%')
  H.Command('MaskdField phone.us')
  H.Type('5', 'i')
  client.ForgetRestarts()
  messages clear
  for n in range(1, 3)
    system('kill -9 ' .. DaemonPid())
    WaitFor(() => fields.Buf(bufnr).stats.reopened >= n, 'restart ' .. n)
  endfor
  system('kill -9 ' .. DaemonPid())
  WaitFor(() => !client.Running(), 'the daemon to stay down')
  sleep 100m
  var got = Messages()
  H.Eq(4, len(got), 'messages: ' .. string(got))
  H.Eq(true, got[3] =~ 'fields are off until you open one again', 'the last message: ' .. got[3])
  H.Eq(-1, DaemonPid(), 'no daemon')
  H.Normal("A5\<Esc>", {format: false})
  H.Eq('+1 (55', getline(1), 'plain typing')
  # Opening a field again starts one; the formatted text is taken whole.
  normal! 0
  H.Command('MaskdField phone.us')
  H.Eq('+1 (55', getline(1), 'opened over the whole text')
  H.Insert([['5', '+1 (555', 7]], 'A')
enddef
H.Case('a daemon that keeps dying: restarted 3 times, then one message and plain typing', TestKeepsDying)

def TestStalledDaemon()
  H.Buffer([''])
  H.Command('MaskdField phone.us')
  H.Type('5', 'i')
  var pid = DaemonPid()
  var stalls = client.Stalls()
  messages clear
  system('kill -STOP ' .. pid)
  try
    # Each key would wait for its formatting: the first wait runs out, and no key waits after.
    var started = reltime()
    feedkeys("A5\<Cmd>call maskd#client#Flush(bufnr('%')) | call maskd#client#Await(bufnr('%'))\<CR>"
      .. "5\<Cmd>call maskd#client#Flush(bufnr('%')) | call maskd#client#Await(bufnr('%'))\<CR>"
      .. "1\<Cmd>call maskd#client#Flush(bufnr('%')) | call maskd#client#Await(bufnr('%'))\<CR>\<Esc>", 'xt')
    H.Out(printf('      three keys into a stopped daemon took %.0f ms', reltimefloat(reltime(started)) * 1000))
    H.Eq(stalls + 1, client.Stalls(), 'stalls (waits that ran out)')
    H.Eq(true, client.Stalled(), 'stalled')
    H.Eq('+1 (5551', getline(1), 'typed, unformatted')
    H.Eq(1, len(Messages()), 'one message')
  finally
    system('kill -CONT ' .. pid)
  endtry
  WaitFor(() => !client.Stalled(), 'the daemon to answer again')
  # Typing goes on formatted once it answers (what it formatted late is dropped as stale, and
  # the field is read again).
  H.Type('2', 'A')
  WaitFor(() => getline(1) == '+1 (555) 12', 'the field in form again, now ' .. getline(1))
enddef
H.Case('a stalled daemon: one wait runs out, typing never waits after it', TestStalledDaemon)

def TestCommandWhileStalled()
  H.Buffer(['Tel: ', 'Card: '])
  normal! $
  H.Command('MaskdField phone.us')
  H.Type('5', 'a')
  var pid = DaemonPid()
  messages clear
  system('kill -STOP ' .. pid)
  try
    # A wait runs out: the daemon is slow (a loaded machine), not gone.
    var reply = client.Request('maskd/formatHints', {textDocument: {uri: client.Document(bufnr('%')).uri}, position: {line: 0, character: 0}})
    H.Eq(1, has_key(reply, 'error'), 'no answer in time: ' .. string(reply))
    H.Eq(true, client.Stalled(), 'stalled')
    # A command meanwhile still goes out: nothing waits for its answer, and it comes.
    cursor(2, 1)
    normal! $
    execute 'MaskdField card'
  finally
    system('kill -CONT ' .. pid)
  endtry
  WaitFor(() => len(fields.List(bufnr('%'))) == 2, 'the card field to open')
  H.Eq(false, client.Stalled(), 'the answer ended the stall')
  H.Eq([], filter(Messages(), (_, m) => m =~ 'maskd is not answering'), 'no refusal')
  H.Type('41111', 'A')
  H.Eq('Card: 4111 1', getline(2), 'the card field formats')
enddef
H.Case('a command while the daemon is stalled opens its field when the answer comes', TestCommandWhileStalled)

def TestColorScheme()
  colorscheme default
  H.Eq(hlID('Comment'), synIDtrans(hlID('MaskdPlaceholder')), 'MaskdPlaceholder after :colorscheme')
enddef
H.Case('MaskdPlaceholder keeps its colour across :colorscheme', TestColorScheme)

def TestMissingDaemonOnce()
  client.Stop()
  var saved = g:maskd_cmd
  g:maskd_cmd = ['/nonexistent/maskd']
  H.Buffer([''])
  messages clear
  H.Command('MaskdField phone.us')
  H.Command('MaskdField phone.us')
  var got = Messages()
  g:maskd_cmd = saved
  H.Eq(["maskd: cannot run ['/nonexistent/maskd']: set g:maskd_cmd to the maskd binary"], got, 'one line, once')
enddef
H.Case('a missing daemon: one line once, naming the option', TestMissingDaemonOnce)

def TestRangesFollowedWhileAway()
  H.Buffer(['Tel: ', 'x'])
  var bufnr = bufnr('%')
  cursor(1, 5)
  H.Command('MaskdField phone.us')
  H.Type('555', 'a')
  client.ForgetRestarts()
  messages clear
  system('kill -9 ' .. DaemonPid())
  # While it is away: a line above, text before the field on its line, digits after it,
  # each command's change sent by itself as TextChanged sends it in a terminal.
  for keys in ["ggOtop\<Esc>", "j0iMy \<Esc>", "A1234567\<Esc>"]
    feedkeys(keys, 'xt')
    client.Flush(bufnr)
  endfor
  WaitFor(() => fields.Buf(bufnr).stats.reopened >= 1, 'the fields to open again')
  WaitFor(() => getline(2) == 'My Tel: +1 (555) 123-4567', 'the field in form, now ' .. string(getline(1, '$')))
  H.Eq(['top', 'My Tel: +1 (555) 123-4567', 'x'], getline(1, '$'), 'text')
  H.Eq({start: {line: 1, character: 8}, end: {line: 1, character: 25}}, H.FirstField().range, 'range')
enddef
H.Case('while the daemon is away the fields follow the text around them', TestRangesFollowedWhileAway)

def TestManyLinesOneRefused()
  H.Buffer(['5551234567', 'Name: Ann', '4155550000'])
  messages clear
  H.Command(':1,3MaskdField phone.us')
  H.Eq(['+1 (555) 123-4567', 'Name: Ann', '+1 (415) 555-0000'], getline(1, '$'), 'text')
  var got = Messages()
  H.Eq(1, len(got), 'messages: ' .. string(got))
  H.Eq(true, got[0] =~ "^maskd: 2 of 3 fields opened; line 2: 'Name: Ann' does not fit phone.us", 'message: ' .. got[0])
enddef
H.Case('a range over lines with one line that does not fit: the others open, one message', TestManyLinesOneRefused)

H.Run()
