vim9script
# maskd: the one daemon of this Vim and the documents it knows.
#
# The daemon runs as a job whose channel speaks LSP (Content-Length framed JSON-RPC), so
# Vim does the framing.  The commands' requests go out with RequestThen() and their answers
# are applied when they come, so nothing waits for them.  Request() waits (ch_evalexpr),
# bounded by g:maskd_timeout: for initialize, and for the internal reads and the tests' API
# calls.  A wait that runs out marks the daemon stalled, and no wait is made until it sends
# something again.  Notifications from the daemon go to the handlers registered with On().
#
# Documents: a buffer is attached with Attach(); it is opened with didOpen and from then
# on what Vim reports through listener_add() goes out as incremental didChange
# notifications, one per command or keystroke, whose version is the buffer's b:changedtick.
# Vim reports changed lines, not changed characters, so a copy of the lines as the daemon
# knows them is kept and each change is narrowed to the characters that differ; where that
# is ambiguous ("5" typed before a "5") the cursor decides, because maskd puts the caret
# after the inserted text.  Listener callbacks run before the screen is redrawn, so in
# Insert mode each keystroke is its own didChange; TextChanged and TextChangedI send them
# at once, a zero timer otherwise (see OnChange()).
#
# A daemon that dies is noticed at once (exit_cb), said once, and started again, at most
# RESTARTS times in RESTART_WINDOW ms.  Meanwhile the documents stay tracked (their changes
# are narrowed as ever but go nowhere), so the fields' ranges follow what is typed; the new
# daemon gets each document's text in didOpen, and 'restarted' ({bufnr}) lets fields.vim
# open every field again.  One that dies before answering initialize is not restarted.
#
# Keys typed fast: a change is sent, and the next key must act on the text as the daemon
# formatted it.  Were that key inserted before the didFormat is applied, the didFormat would
# be stale and dropped, and what the daemon refused in it (a letter, a digit too many) would
# stay in the buffer.  So after TextChanged(I) or the zero timer has sent a change, Await()
# waits for the daemon's answers, its didFormat handled during the wait, before Vim reads
# the next key: keys that arrive meanwhile wait in the typeahead buffer.  (The zero timer
# matters in a bracketed paste that arrives slowly: Vim reads it in a loop of its own, where
# TextChangedI is not triggered but timers run while it waits for the next character.)

import autoload './offset.vim'

const CLIENT_NAME = 'maskd.vim'
const CLIENT_VERSION = '0.1.0'

var job: job = null_job
var chan: channel = null_channel
var ready = false
var stopping = false
var server: dict<any> = {}
var handlers: dict<list<func>> = {}
var docs: dict<dict<any>> = {}
var stderr_lines: list<string> = []
var messages: list<string> = []
var errors: list<string> = []
var resyncs = 0
var said_missing = ''
# Set when the daemon let a wait run out; no wait is made until it sends something again,
# so a stalled daemon costs one wait, and typing goes on unformatted.
var stalled = false
var stalls = 0
# Requests sent by RequestThen() whose answer has not come.
var inflight = 0
const RESTARTS = 3
const RESTART_WINDOW = 60000
# reltime() of each restart within the window.
var restarts: list<list<number>> = []
# The workspace folders (directories) the daemon is told of: the project root first, then
# each folder of a .maskd.json that a buffer opened under (the daemon reads the file at the
# top of a folder only).  Kept across restarts.
var folders: list<string> = []

# Lifecycle ---------------------------------------------------------------------------------

# Returns the daemon's command line from g:maskd_cmd (a String or a List; default 'maskd').
def Command(): list<string>
  var cmd = get(g:, 'maskd_cmd', 'maskd')
  if type(cmd) == v:t_list
    return mapnew(cmd, (_, a) => type(a) == v:t_string ? a : string(a))
  endif
  return split(cmd)
enddef

def Timeout(): number
  return get(g:, 'maskd_timeout', 1000)
enddef

# Milliseconds Start() waits for the answer to initialize: once per daemon, and a loaded
# machine can take a second to start one.
def StartTimeout(): number
  return get(g:, 'maskd_start_timeout', 5000)
enddef

# Milliseconds Await() waits for the formatting of a change (0: it does not wait): a
# keystroke's budget.
def FormatTimeout(): number
  return get(g:, 'maskd_format_timeout', 200)
enddef

# Appends `what` and `msg` to the file g:maskd_trace names, when it is set.
def Trace(what: string, msg: any)
  var path = get(g:, 'maskd_trace', '')
  if type(path) == v:t_string && path != ''
    writefile([what .. ' ' .. json_encode(msg)], path, 'a')
  endif
enddef

# Records a problem and shows it.
def Problem(text: string)
  add(errors, text)
  if len(errors) > 50
    remove(errors, 0)
  endif
  echohl ErrorMsg
  echomsg 'maskd: ' .. text
  echohl None
enddef

# Returns the field rules of g:maskd_rules (a List of rules), or [] when it is unset.
export def Rules(): list<any>
  var rules = get(g:, 'maskd_rules', [])
  return type(rules) == v:t_list ? rules : []
enddef

# Returns the nearest directory from `dir` upwards that holds a .maskd.json, or ''.
export def RulesFolder(dir: string): string
  var at = dir
  while at != ''
    if filereadable(at .. '/.maskd.json')
      return at
    endif
    var parent = fnamemodify(at, ':h')
    if parent == at
      break
    endif
    at = parent
  endwhile
  return ''
enddef

# The project root, first of the folders: the working directory, or the nearest directory
# above it with a .maskd.json (rules' `files` globs are relative to it).
def EnsureRoot()
  if empty(folders)
    var cwd = getcwd()
    var found = RulesFolder(cwd)
    add(folders, found == '' ? cwd : found)
  endif
enddef

# Returns the file:// URI of absolute path `path`.
export def FileUri(path: string): string
  return 'file://' .. Escape(path[0] == '/' ? path : '/' .. path)
enddef

def WorkspaceFolder(dir: string): dict<string>
  return {uri: FileUri(dir), name: dir}
enddef

# Returns the workspace folders the daemon knows (or is to be told of when it starts).
export def Folders(): list<string>
  EnsureRoot()
  return copy(folders)
enddef

# Tells the daemon of workspace folder `dir` (a directory holding a .maskd.json) unless it
# knows it: at start, or with workspace/didChangeWorkspaceFolders.  Call it before attaching
# a buffer under `dir`, so that the buffer opens under the folder's rules.
export def AddFolder(dir: string)
  EnsureRoot()
  if index(folders, dir) >= 0
    return
  endif
  add(folders, dir)
  if Running()
    Notify('workspace/didChangeWorkspaceFolders', {event: {added: [WorkspaceFolder(dir)], removed: []}})
  endif
enddef

# Returns whether the daemon is running and initialized.
export def Running(): bool
  return ready && job_status(job) == 'run'
enddef

# Starts the daemon unless it runs, and initializes it.  Returns whether it runs.
export def Start(): bool
  if Running()
    return true
  endif
  if &encoding !=# 'utf-8'
    Problem("'encoding' is " .. &encoding .. ': maskd needs utf-8 (set encoding=utf-8 in your vimrc)')
    return false
  endif
  var argv = Command()
  if empty(argv) || !executable(argv[0])
    # Once per command, in one line: which option names the binary.
    if said_missing != string(argv)
      said_missing = string(argv)
      Problem('cannot run ' .. string(argv) .. ': set g:maskd_cmd to the maskd binary')
    endif
    return false
  endif
  said_missing = ''
  stderr_lines = []
  stopping = false
  stalled = false
  job = job_start(argv, {
    in_mode: 'lsp',
    out_mode: 'lsp',
    err_mode: 'nl',
    out_cb: OnMessage,
    err_cb: OnStderr,
    exit_cb: OnExit,
    stoponexit: 'term',
  })
  if job_status(job) != 'run'
    Problem('could not start ' .. string(argv))
    return false
  endif
  chan = job_getchannel(job)
  EnsureRoot()
  # The plugin shows each field's state itself (placeholder, :MaskdInfo, statusline).
  var options: dict<any> = {diagnostics: 'off'}
  if !empty(Rules())
    options.rules = Rules()
  endif
  var reply = ch_evalexpr(chan, {
    method: 'initialize',
    params: {
      processId: getpid(),
      clientInfo: {name: CLIENT_NAME, version: CLIENT_VERSION},
      rootUri: FileUri(folders[0]),
      workspaceFolders: mapnew(folders, (_, d) => WorkspaceFolder(d)),
      capabilities: {general: {positionEncodings: ['utf-16']}, workspace: {workspaceFolders: true}},
      initializationOptions: options,
    },
  }, {timeout: StartTimeout()})
  if type(reply) != v:t_dict || type(get(reply, 'result', 0)) != v:t_dict
    var why = type(reply) == v:t_dict && has_key(reply, 'error') ? get(reply.error, 'message', '') : 'no answer'
    Problem('initialize failed: ' .. why .. StderrTail())
    stopping = true
    job_stop(job)
    return false
  endif
  server = reply.result
  var encoding = get(get(server, 'capabilities', {}), 'positionEncoding', 'utf-16')
  if encoding != 'utf-16'
    Problem('the daemon chose position encoding ' .. encoding .. ', this plugin speaks utf-16')
    stopping = true
    job_stop(job)
    return false
  endif
  ch_sendexpr(chan, {method: 'initialized', params: {}})
  ready = true
  augroup maskd_client
    autocmd!
    autocmd VimLeavePre * Stop()
  augroup END
  return true
enddef

# Closes every document and shuts the daemon down (shutdown, then exit).
export def Stop()
  for key in keys(docs)
    Detach(str2nr(key))
  endfor
  if !Running()
    return
  endif
  stopping = true
  ch_evalexpr(chan, {method: 'shutdown'}, {timeout: 1000})
  ready = false
  ch_sendexpr(chan, {method: 'exit'})
  # Give it a moment to go by itself before it is stopped.
  for _ in range(50)
    if job_status(job) != 'run'
      break
    endif
    sleep 2m
  endfor
  if job_status(job) == 'run'
    job_stop(job)
  endif
enddef

def OnStderr(ch: channel, line: string)
  add(stderr_lines, line)
  if len(stderr_lines) > 20
    remove(stderr_lines, 0)
  endif
enddef

def StderrTail(): string
  return empty(stderr_lines) ? '' : ' (' .. stderr_lines[-1] .. ')'
enddef

# Detaches every document without telling the daemon (it is gone).
def DropDocs()
  for key in keys(docs)
    var doc = remove(docs, key)
    listener_remove(doc.listener)
    if doc.timer != 0
      timer_stop(doc.timer)
    endif
    execute printf('silent! autocmd! maskd_buffers * <buffer=%s>', key)
    Emit('detach', {bufnr: str2nr(key)})
  endfor
enddef

# Returns how a job ended, from its exit status (-1: Vim's value for a signal).
def How(status: number): string
  return status < 0 ? 'killed' : 'status ' .. status
enddef

def OnExit(j: job, status: number)
  if j != job
    return
  endif
  var expected = stopping
  var was_ready = ready
  ready = false
  stopping = false
  inflight = 0
  if expected || !was_ready
    # Stopped on purpose, or dead before initialize was answered: Start() says why.
    DropDocs()
    return
  endif
  filter(restarts, (_, t) => reltimefloat(reltime(t)) * 1000 < RESTART_WINDOW)
  if len(restarts) >= RESTARTS
    restarts = []
    Problem(printf('the daemon stopped (%s), %d times within a minute: fields are off until you open one again',
      How(status), RESTARTS + 1))
    DropDocs()
    return
  endif
  add(restarts, reltime())
  Problem(printf('the daemon stopped (%s%s); restarted it, fields kept', How(status), StderrTail()))
  for doc in values(docs)
    doc.away = true
  endfor
  # Not from within the exit callback: the new daemon's initialize waits for its answer.
  timer_start(0, (_) => Restart())
enddef

# Starts a new daemon for the documents the last one had, and has their fields opened again.
def Restart()
  if Running()
    return
  endif
  var away = filter(keys(docs), (_, k) => get(docs[k], 'away', false))
  if !Start()
    DropDocs()
    return
  endif
  for key in away
    if !has_key(docs, key)
      continue
    endif
    var bufnr = str2nr(key)
    # What was typed meanwhile moves the fields' ranges before the text goes out whole.
    Flush(bufnr)
    var doc = docs[key]
    doc.away = false
    doc.lines = getbufline(bufnr, 1, '$')
    doc.count = len(doc.lines)
    doc.version = getbufvar(bufnr, 'changedtick')
    doc.unsettled = false
    var ft = getbufvar(bufnr, '&filetype')
    Notify('textDocument/didOpen', {textDocument: {
      uri: doc.uri,
      languageId: ft == '' ? 'plaintext' : ft,
      version: doc.version,
      text: Text(doc.lines),
    }})
    Emit('restarted', {bufnr: bufnr})
  endfor
enddef

# Forgets the restarts counted so far (for the tests).
export def ForgetRestarts()
  restarts = []
enddef

# Records that the daemon let a wait begun at `started` run out after `timeout` ms (said
# once per stall).
def Stall(started: list<number>, timeout: number)
  # A wait cut short (the daemon died, the channel closed) is no stall: OnExit() says what
  # happened.
  if reltimefloat(reltime(started)) * 1000 < timeout * 0.9 || job_status(job) != 'run' || ch_status(chan) != 'open'
    return
  endif
  if !stalled
    stalled = true
    stalls += 1
    Problem('the daemon is not answering: typing goes on unformatted until it does')
  endif
enddef

# Returns whether the daemon let a wait run out and has sent nothing since.  Messages that
# came meanwhile are read first (they end the stall).
export def Stalled(): bool
  if stalled && ch_status(chan) == 'open' && ch_canread(chan)
    Drain()
  endif
  return stalled
enddef

# Returns how many times the daemon stalled (for the tests).
export def Stalls(): number
  return stalls
enddef

# Returns the daemon's initialize result ({capabilities, serverInfo}), or {} when it is not running.
export def Server(): dict<any>
  return Running() ? server : {}
enddef

# Returns the preset names the daemon announced.
export def Presets(): list<string>
  var maskd = get(get(get(Server(), 'capabilities', {}), 'experimental', {}), 'maskd', {})
  var names = get(maskd, 'presets', [])
  return type(names) == v:t_list ? names : []
enddef

# Returns the region codes the daemon's phone preset takes.
export def PhoneRegions(): list<string>
  var maskd = get(get(get(Server(), 'capabilities', {}), 'experimental', {}), 'maskd', {})
  var codes = get(maskd, 'phoneRegions', [])
  return type(codes) == v:t_list ? codes : []
enddef

# Returns the region codes the daemon's postal preset takes.
export def PostalRegions(): list<string>
  var maskd = get(get(get(Server(), 'capabilities', {}), 'experimental', {}), 'maskd', {})
  var codes = get(maskd, 'postalRegions', [])
  return type(codes) == v:t_list ? codes : []
enddef

# Returns the daemon's last lines on stderr, its window/logMessage texts and the plugin's
# own problems, for bug reports and the tests.
export def Log(): dict<list<string>>
  return {stderr: copy(stderr_lines), messages: copy(messages), errors: copy(errors)}
enddef

# Returns how often a buffer's copy had drifted and was sent whole (0 unless there is a bug).
export def Resyncs(): number
  return resyncs
enddef

# Messages ----------------------------------------------------------------------------------

# Registers `Fn(params)` for the daemon's notification `method`.  The plugin's own events
# are 'detach' ({bufnr}: the buffer is no longer attached), 'sending' ({bufnr}: a didChange
# is about to go out), 'changed' ({bufnr, version, change?}: a didChange went out, or would
# have while the daemon was away; `change` the one TextDocumentContentChangeEvent of a
# range) and 'restarted' ({bufnr}: a new daemon has the buffer's text).
export def On(method: string, Fn: func)
  if !has_key(handlers, method)
    handlers[method] = []
  endif
  add(handlers[method], Fn)
enddef

def Emit(method: string, params: any)
  for Fn in get(handlers, method, [])
    try
      Fn(params)
    catch
      Problem(method .. ': ' .. v:exception .. ' at ' .. v:throwpoint)
    endtry
  endfor
enddef

def OnMessage(ch: channel, msg: any)
  Trace('<-', msg)
  stalled = false
  if type(msg) != v:t_dict || type(get(msg, 'method', 0)) != v:t_string
    return
  endif
  if has_key(msg, 'id')
    # maskd sends no requests; refuse any, as LSP wants an answer.
    ch_sendexpr(chan, {id: msg.id, error: {code: -32601, message: 'not handled by ' .. CLIENT_NAME}})
    return
  endif
  var params = get(msg, 'params', {})
  if msg.method == 'window/logMessage' || msg.method == 'window/showMessage'
    var m = type(params) == v:t_dict ? get(params, 'message', '') : params
    var text = type(m) == v:t_string ? m : string(m)
    add(messages, text)
    if len(messages) > 50
      remove(messages, 0)
    endif
  endif
  Emit(msg.method, params)
enddef

# Sends request `method` and waits for its answer: the response ({result} or {error}).
# Changes not yet sent go out first, so the request sees the buffer as it is.
export def Request(method: string, params: dict<any>): dict<any>
  if !Running()
    return {error: {code: -32603, message: 'maskd is not running'}}
  endif
  if Stalled()
    return {error: {code: -32603, message: 'maskd is not answering'}}
  endif
  FlushAll()
  Trace('->', {method: method, params: params})
  var reply: any
  var started = reltime()
  try
    reply = ch_evalexpr(chan, {method: method, params: params}, {timeout: Timeout()})
  catch
    # The daemon died and Vim has not noticed yet: OnExit() reports it, once.
    return {error: {code: -32603, message: 'maskd is not running'}}
  endtry
  Trace('<-', reply)
  if type(reply) != v:t_dict || (!has_key(reply, 'result') && !has_key(reply, 'error'))
    Stall(started, Timeout())
    return {error: {code: -32603, message: 'no answer to ' .. method .. ' within ' .. Timeout() .. ' ms'}}
  endif
  return reply
enddef

# Sends request `method` and returns at once; `Done(response)` ({result} or {error}) runs
# when the answer comes.  Changes not yet sent go out first.  What the commands use, so
# that a slow daemon never holds up the person.  A stalled daemon gets the request too:
# nothing waits for it, and a daemon that is only slow (a loaded machine) answers it.
export def RequestThen(method: string, params: dict<any>, Done: func)
  if !Running()
    Done({error: {code: -32603, message: 'maskd is not running'}})
    return
  endif
  FlushAll()
  Trace('->', {method: method, params: params})
  inflight += 1
  try
    ch_sendexpr(chan, {method: method, params: params}, {callback: (_, reply) => Answered(reply, Done)})
  catch
    inflight -= 1
    Done({error: {code: -32603, message: 'maskd is not running'}})
  endtry
enddef

def Answered(reply: any, Done: func)
  inflight = max([0, inflight - 1])
  stalled = false
  Trace('<-', reply)
  if type(reply) != v:t_dict || (!has_key(reply, 'result') && !has_key(reply, 'error'))
    Done({error: {code: -32603, message: 'a malformed answer: ' .. string(reply)}})
    return
  endif
  Done(reply)
enddef

# Returns whether an answer to RequestThen() is still on its way.
export def Busy(): bool
  return inflight > 0 && Running()
enddef

# Sends request `method` without waiting for its answer (nor flushing changes first).
export def Post(method: string, params: dict<any>)
  if Running()
    Trace('->', {method: method, params: params})
    ch_sendexpr(chan, {method: method, params: params}, {callback: (_, reply) => Trace('<-', reply)})
  endif
enddef

# Sends notification `method`.
export def Notify(method: string, params: dict<any>)
  if job_status(job) == 'run' && ch_status(chan) == 'open'
    Trace('->', {method: method, params: params})
    try
      ch_sendexpr(chan, {method: method, params: params})
    catch
      # The daemon died and Vim has not noticed yet: its exit is reported once, by OnExit().
    endtry
  endif
enddef

# Documents ---------------------------------------------------------------------------------

# Returns `path` with every byte but [A-Za-z0-9/._~-] percent-encoded.
def Escape(path: string): string
  var out = ''
  for i in range(len(path))
    var b = strpart(path, i, 1)
    out ..= b =~ '^[A-Za-z0-9/._~-]$' ? b : printf('%%%02X', char2nr(b))
  endfor
  return out
enddef

# Returns the URI of buffer `bufnr`: file:// for named buffers, untitled: for others.
export def Uri(bufnr: number): string
  var name = bufname(bufnr)
  if name == '' || getbufvar(bufnr, '&buftype') != ''
    return 'untitled:vim-buffer-' .. bufnr
  endif
  return FileUri(fnamemodify(name, ':p'))
enddef

# Returns the buffer attached under `uri`, or -1.
export def BufnrOf(uri: string): number
  for [key, doc] in items(docs)
    if doc.uri == uri
      return str2nr(key)
    endif
  endfor
  return -1
enddef

# Returns whether `bufnr` is attached.
export def Attached(bufnr: number): bool
  return has_key(docs, string(bufnr))
enddef

# Returns the document text of `lines`: every line followed by a line break.  The break
# after the last line makes the place after it a position too (line count, character 0).
def Text(lines: list<string>): string
  return empty(lines) ? '' : join(lines, "\n") .. "\n"
enddef

# Attaches `bufnr` to the daemon (starting it if needed).  Returns whether it is attached.
export def Attach(bufnr: number): bool
  if Attached(bufnr)
    return true
  endif
  if !bufloaded(bufnr) || !Start()
    return false
  endif
  var lines = getbufline(bufnr, 1, '$')
  var doc = {
    uri: Uri(bufnr),
    lines: lines,
    # The buffer's line count after the changes the listener reported.
    count: len(lines),
    version: getbufvar(bufnr, 'changedtick'),
    listener: 0,
    pending: [],
    timer: 0,
    unsettled: false,
  }
  if bufnr == bufnr('%')
    doc.changenr = changenr()
    doc.highest = changenr()
  endif
  var ft = getbufvar(bufnr, '&filetype')
  Notify('textDocument/didOpen', {textDocument: {
    uri: doc.uri,
    languageId: ft == '' ? 'plaintext' : ft,
    version: doc.version,
    text: Text(lines),
  }})
  doc.listener = listener_add(OnChange, bufnr)
  docs[string(bufnr)] = doc
  augroup maskd_buffers
    execute printf('autocmd! * <buffer=%d>', bufnr)
    execute printf('autocmd TextChanged,TextChangedI,TextChangedP <buffer=%d> Changed(%d)', bufnr, bufnr)
    execute printf('autocmd BufUnload <buffer=%d> Detach(%d)', bufnr, bufnr)
  augroup END
  return true
enddef

# Detaches `bufnr`: its listener goes, the daemon closes the document and its fields.
export def Detach(bufnr: number)
  var key = string(bufnr)
  if !has_key(docs, key)
    return
  endif
  var doc = remove(docs, key)
  listener_remove(doc.listener)
  if doc.timer != 0
    timer_stop(doc.timer)
  endif
  execute printf('silent! autocmd! maskd_buffers * <buffer=%d>', bufnr)
  Notify('textDocument/didClose', {textDocument: {uri: doc.uri}})
  Emit('detach', {bufnr: bufnr})
enddef

# Sends the changes of `bufnr` that are not sent yet, as one didChange.
export def Flush(bufnr: number)
  if Attached(bufnr) && bufloaded(bufnr)
    listener_flush(bufnr)
    Send(bufnr)
  endif
enddef

def FlushAll()
  for key in keys(docs)
    Flush(str2nr(key))
  endfor
enddef

# TextChanged, TextChangedI, TextChangedP and the zero timer: the change goes out, and its
# formatting is applied before the next key is read.
def Changed(bufnr: number)
  Flush(bufnr)
  Await(bufnr)
enddef

# Handles the messages that ch_evalexpr() left queued.  It returns as soon as its answer has
# been read, and a notification read with it, before it, is still in the channel's queue:
# Vim would hand it to OnMessage() only once it next waits for a key, after the keys typed
# meanwhile.
def Drain()
  for _ in range(1000)
    if ch_status(chan) != 'open' || !ch_canread(chan)
      return
    endif
    var msg = ch_read(chan, {timeout: 0})
    if type(msg) != v:t_dict
      return
    endif
    OnMessage(chan, msg)
  endfor
enddef

# Waits until the daemon has answered every didChange sent for `bufnr` (at most
# g:maskd_format_timeout ms): the daemon handles messages in order, so the answer to a
# request sent after them comes after their didFormat notifications, which are handled
# during the wait (ch_evalexpr() runs the channel's callbacks while it waits) or right
# after it (Drain()).  Then emits 'settled' ({bufnr}): nothing the daemon sent for the
# buffer is still on its way.  Returns whether it settled.
export def Await(bufnr: number): bool
  var doc = get(docs, string(bufnr), {})
  if empty(doc) || !doc.unsettled || !Running() || FormatTimeout() <= 0 || Stalled()
    return false
  endif
  var params = {textDocument: {uri: doc.uri}, position: {line: 0, character: 0}}
  Trace('->', {method: 'maskd/formatHints', params: params})
  var reply: any
  var started = reltime()
  try
    reply = ch_evalexpr(chan, {method: 'maskd/formatHints', params: params}, {timeout: FormatTimeout()})
  catch
    return false
  endtry
  Trace('<-', reply)
  if type(reply) != v:t_dict || empty(reply)
    Stall(started, FormatTimeout())
    return false
  endif
  Drain()
  if !has_key(docs, string(bufnr))
    return false
  endif
  # The didFormat handler may have sent the echo of its edits meanwhile: it gets no answer.
  doc.unsettled = false
  Emit('settled', {bufnr: bufnr})
  return true
enddef

# Returns the VersionedTextDocumentIdentifier of attached buffer `bufnr`: the daemon refuses a
# request made against a version it is not at (-32801) rather than answer for other text.
export def Document(bufnr: number): dict<any>
  var doc = get(docs, string(bufnr), {})
  return {uri: get(doc, 'uri', Uri(bufnr)), version: get(doc, 'version', 0)}
enddef

# Returns the version of `bufnr` the daemon was last told about (-1 when not attached).
export def Version(bufnr: number): number
  return get(get(docs, string(bufnr), {}), 'version', -1)
enddef

# Returns whether the daemon's copy of `bufnr` (as the plugin tracks it) equals the buffer.
export def InSync(bufnr: number): bool
  return Attached(bufnr) && docs[string(bufnr)].lines == getbufline(bufnr, 1, '$')
enddef

def IsContinuation(text: string, i: number): bool
  if i <= 0 || i >= len(text)
    return false
  endif
  var b = char2nr(strpart(text, i, 1))
  return b >= 0x80 && b < 0xC0
enddef

def CommonPrefix(a: string, b: string, most: number): number
  var lo = 0
  var hi = most
  # The longest prefix of equal bytes, by bisection: string comparisons are native.
  while lo < hi
    var mid = (lo + hi + 1) / 2
    if strpart(a, 0, mid) ==# strpart(b, 0, mid)
      lo = mid
    else
      hi = mid - 1
    endif
  endwhile
  return lo
enddef

def CommonSuffix(a: string, b: string, most: number): number
  var lo = 0
  var hi = most
  while lo < hi
    var mid = (lo + hi + 1) / 2
    if strpart(a, len(a) - mid) ==# strpart(b, len(b) - mid)
      lo = mid
    else
      hi = mid - 1
    endif
  endwhile
  return lo
enddef

# Returns [start, oldEnd, newEnd]: the bytes old[start : oldEnd] became new[start : newEnd],
# and the rest is equal.  `hint` (the cursor's byte offset in `new`, or -1) settles where an
# ambiguous change is: the change ends at it or after it and starts at it or before it.
# `start` (the byte offset where Vim says the change starts, or -1) goes before the cursor: the
# change starts there when the texts agree up to it, since the cursor does not always stand after
# a change (after `p` it stands on the last character put).  The ends never split a character.
export def Diff(old: string, new: string, hint: number, start = -1): list<number>
  var lo = len(old)
  var ln = len(new)
  var most = min([lo, ln])
  var p: number
  var s: number
  if hint >= 0 && hint <= ln
    s = CommonSuffix(old, new, min([most, ln - hint]))
    p = CommonPrefix(old, new, min([most - s, hint]))
  else
    p = CommonPrefix(old, new, most)
    s = CommonSuffix(old, new, most - p)
  endif
  if start > p && start <= CommonPrefix(old, new, most)
    p = start
    s = CommonSuffix(old, new, most - p)
  endif
  while p > 0 && (IsContinuation(old, p) || IsContinuation(new, p))
    p -= 1
  endwhile
  while s > 0 && (IsContinuation(old, lo - s) || IsContinuation(new, ln - s))
    s -= 1
  endwhile
  return [p, lo - s, ln - s]
enddef

# Returns the LSP Position of byte offset `off` in the text of `lines` (each line followed by
# a line break), the first of which is line `first` (0-based).
def PositionIn(lines: list<string>, first: number, off: number): dict<number>
  var rest = off
  var i = 0
  while i < len(lines) && rest > len(lines[i])
    rest -= len(lines[i]) + 1
    i += 1
  endwhile
  if i >= len(lines)
    return {line: first + i, character: 0}
  endif
  return {line: first + i, character: offset.Utf16Col(lines[i], rest)}
enddef

# The listener.  Each item of `changes` says that lines [lnum, end) of the buffer as it was
# just before it became lines [lnum, end + added); the summary arguments do not (their `end`
# mixes numberings), so the items are merged one by one into the pending region.  Nothing
# is sent from here: Vim calls a listener in the middle of some commands (J changes a line,
# calls it, then deletes the next line), and sending then would show the daemon a step no
# person made: a joined field would seem deleted.  A zero timer sends what one command
# changed once it is done, and waits for its formatting (see Changed()), unless a flush (an
# autocmd, a request, the didFormat handler) sends it first.
def OnChange(bufnr: number, start: number, end: number, added: number, changes: list<any>)
  var key = string(bufnr)
  if !has_key(docs, key)
    return
  endif
  var doc = docs[key]
  for change in changes
    var lines = change.added
    if doc.count + lines == 0
      # Deleting every line leaves the buffer one empty line, which the listener does not
      # count (an undo then replaces it): it is the text that took their place.
      lines += 1
    endif
    doc.count += lines
    if empty(doc.pending)
      doc.pending = [change.lnum, change.end, lines]
      # Where the first change starts: the cursor does not always stand after a change (after `p`
      # it stands on the last character put).
      doc.startHint = [change.lnum, get(change, 'col', 1)]
    else
      # Pending: daemon lines [a, b) are buffer lines [a, b + delta) as it was before this change.
      var [a, b, delta] = doc.pending
      var first = min([a, change.lnum])
      var last = max([b + delta, change.end])
      doc.pending = [first, last - delta, delta + lines]
    endif
  endfor
  if doc.timer == 0
    doc.timer = timer_start(0, (_) => Changed(bufnr))
  endif
enddef

# Returns whether the change about to be sent for the current buffer `doc` came from an
# undo or a redo, and records the undo state: undo lowers changenr(), a redo raises it to a
# number the buffer has had before, a new change (or one joined to the last) never does.
def UndoOrRedo(doc: dict<any>): bool
  var now = changenr()
  var last = get(doc, 'changenr', now)
  var highest = get(doc, 'highest', now)
  doc.changenr = now
  doc.highest = max([highest, now])
  return now < last || (now > last && now <= highest)
enddef

# Sends the pending change of `bufnr` as one didChange: the daemon's lines of the pending
# region against the buffer's, narrowed to the characters that differ.
def Send(bufnr: number)
  var key = string(bufnr)
  if !has_key(docs, key)
    return
  endif
  var doc = docs[key]
  if doc.timer != 0
    timer_stop(doc.timer)
    doc.timer = 0
  endif
  if empty(doc.pending) || !bufloaded(bufnr)
    return
  endif
  Emit('sending', {bufnr: bufnr})
  var [start, end, added] = doc.pending
  doc.pending = []
  var old: list<string> = doc.lines
  # (A slice [i : i - 1] is not empty in Vim9: -1 counts from the end.)
  var before = end > start ? old[start - 1 : end - 2] : []
  var after = end + added > start ? getbufline(bufnr, start, end - 1 + added) : []
  var version = getbufvar(bufnr, 'changedtick')
  if end - 1 >= start
    remove(old, start - 1, end - 2)
  endif
  extend(old, after, start - 1)
  if len(old) != get(get(getbufinfo(bufnr), 0, {}), 'linecount', -1)
    # The copy has drifted (Vim reported a change this code does not expect): resend all.
    resyncs += 1
    doc.lines = getbufline(bufnr, 1, '$')
    doc.count = len(doc.lines)
    doc.version = version
    Notify('textDocument/didChange', {
      textDocument: {uri: doc.uri, version: version},
      contentChanges: [{text: Text(doc.lines)}],
    })
    doc.unsettled = true
    Emit('changed', {bufnr: bufnr, version: version})
    return
  endif
  var otext = Text(before)
  var ntext = Text(after)
  var hint = -1
  var undoing = bufnr == bufnr('%') && UndoOrRedo(doc)
  # After an undo or a redo the cursor is wherever Vim put it, not after the change: the
  # change is then what the texts say (the longest common prefix first), never the cursor's.
  if bufnr == bufnr('%') && !undoing && line('.') >= start && line('.') < start + len(after)
    hint = 0
    for i in range(line('.') - start)
      hint += len(after[i]) + 1
    endfor
    hint += min([col('.') - 1, len(after[line('.') - start])])
  endif
  # Where the listener says the first change starts, when that is on the region's first line:
  # `ard: ` put after the blank in `12/29 CVC` is that, not ` ard:` typed at the end of the
  # field before the blank.
  var hinted = get(doc, 'startHint', [0, 1])
  var [p, oend, nend] = Diff(otext, ntext, hint, hinted[0] == start ? hinted[1] - 1 : -1)
  if p == oend && p == nend
    return
  endif
  doc.version = version
  var change = {
    range: {start: PositionIn(before, start - 1, p), end: PositionIn(before, start - 1, oend)},
    text: strpart(ntext, p, nend - p),
  }
  if !get(doc, 'away', false)
    Notify('textDocument/didChange', {textDocument: {uri: doc.uri, version: version}, contentChanges: [change]})
    doc.unsettled = true
  endif
  Emit('changed', {bufnr: bufnr, version: version, change: change, undo: undoing})
enddef
