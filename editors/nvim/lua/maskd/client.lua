-- The one maskd daemon of this Neovim instance: starting or reusing it, attaching buffers,
-- and sending requests once it is initialized. Hides the differences between Neovim 0.7
-- (`vim.lsp.start_client`, `client.request`) and later versions (`vim.lsp.start`,
-- `client:request`).
--
-- A daemon that dies is noticed at once (on_exit), said once, and started again, at most
-- RESTARTS times in RESTART_WINDOW ms; M.on_restart (maskd.init) then opens every field
-- again. One that dies before answering initialize is not restarted (its command is wrong).
local M = {}

local api = vim.api
local fields = require('maskd.fields')
local sync = require('maskd.sync')

--- The options setup() resolved; `cmd` is the daemon's command line.
M.config = { cmd = { 'maskd' } }

--- Handlers of the daemon's notifications, filled in by maskd.init.
M.handlers = {}

local client_id = nil
local ready = false
local queue = {}
local uris = {}

--- The workspace folders (directories) the daemon is told of: the project root first, then
--- each folder of a `.maskd.json` that a buffer opened under (the daemon reads the file at the
--- top of a folder only). Kept across restarts.
M.folders = {}
--- Buffers attached because field rules may apply to them (not for a field command): they
--- are attached again after a restart, when the daemon opens their rule fields anew.
M.auto = {}

local RESTARTS = 3
local RESTART_WINDOW = 60000
-- uv.now() of each restart within the window.
local restarts = {}
-- The ids of clients whose daemon exited (never reused).
local dead = {}
-- The command the "cannot run" message was given for (it is given once).
local said_missing = nil

--- Called with the buffers that had fields once a restarted daemon is initialized.
M.on_restart = nil
--- Called with the buffers that had fields when the daemon is gone for good.
M.on_lost = nil

local function say(msg, level)
  vim.notify('maskd: ' .. msg, level or vim.log.levels.WARN)
end

--- Swallows the "Client N quit with exit code ..." warning that Neovim schedules for a
--- client that died (0.11 names it: "Client maskd quit ..."): the plugin says what happened
--- itself, in one line.
--- The filter stays until that warning came (it comes for an exit code other than 0 or a
--- signal other than 15) and lets every other message through.
local function swallow_quit_warning(id)
  local original = vim.notify
  local function filter(msg, ...)
    if type(msg) == 'string' and (msg:find('Client ' .. id .. ' quit with exit code', 1, true) == 1
        or msg:find('Client maskd quit with exit code', 1, true) == 1) then
      if vim.notify == filter then
        vim.notify = original
      end
      return
    end
    return original(msg, ...)
  end
  vim.notify = filter
end

local function flush()
  local pending = queue
  queue = {}
  for _, fn in ipairs(pending) do
    fn()
  end
end

--- The running client, or nil.
function M.get()
  if not client_id then
    return nil
  end
  local c = vim.lsp.get_client_by_id(client_id)
  if not c then
    client_id, ready = nil, false
  end
  return c
end

local function capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.general = caps.general or {}
  caps.general.positionEncodings = { 'utf-16' }
  -- Neovim 0.9 watches files on Linux by polling every directory below the root (0.10 turned it
  -- off there): the plugin tells the daemon of a .maskd.json saved in Neovim itself instead.
  local watched = type(caps.workspace) == 'table' and caps.workspace.didChangeWatchedFiles
  if type(watched) == 'table' and vim.fn.has('nvim-0.10') == 0 and vim.fn.has('linux') == 1 then
    watched.dynamicRegistration = false
  end
  return caps
end

--- The nearest directory from `dir` upwards that holds a `.maskd.json`, or nil.
function M.rules_folder(dir)
  while dir and dir ~= '' do
    if vim.loop.fs_stat(dir .. '/.maskd.json') then
      return dir
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return nil
    end
    dir = parent
  end
  return nil
end

--- The project root, first of M.folders: the working directory, or the nearest directory
--- above it with a `.maskd.json` (rules' `files` globs are relative to it).
local function ensure_root()
  if #M.folders == 0 then
    local cwd = vim.loop.cwd()
    table.insert(M.folders, M.rules_folder(cwd) or cwd)
  end
end

local function workspace_folder(dir)
  return { uri = vim.uri_from_fname(dir), name = dir }
end

local function notify(c, method, params)
  if vim.fn.has('nvim-0.11') == 1 then
    return c:notify(method, params)
  end
  return c.notify(method, params)
end

--- Sends notification `method` once the daemon is initialized (nothing when it is not running).
function M.notify(method, params)
  local function send(failed)
    local c = not failed and M.get()
    if c then
      notify(c, method, params)
    end
  end
  if ready then
    send()
  elseif M.get() then
    table.insert(queue, send)
  end
end

local function make_config()
  local handlers = {}
  for method, fn in pairs(M.handlers) do
    handlers[method] = fn
  end
  ensure_root()
  -- The client's field rules go to the daemon as they are; an empty list is not sent (Lua
  -- cannot tell it from an empty object).
  local rules = M.config.rules
  if type(rules) ~= 'table' or next(rules) == nil then
    rules = nil
  end
  return {
    name = 'maskd',
    cmd = M.config.cmd,
    root_dir = M.folders[1],
    workspace_folders = vim.tbl_map(workspace_folder, M.folders),
    capabilities = capabilities(),
    -- The plugin shows each field's state itself (placeholder, :MaskdInfo, status()).
    init_options = { diagnostics = 'off', rules = rules },
    flags = { debounce_text_changes = 0, allow_incremental_sync = true },
    offset_encoding = 'utf-16',
    handlers = handlers,
    on_init = function(client)
      -- maskd.sync sends didChange with the ranges Neovim reports, not the built-in client.
      sync.disable_builtin(client)
      -- In 0.7 the didOpen of buffers attached before now is sent after on_init returns,
      -- so requests queued meanwhile go out on the next turn of the loop.
      ready = true
      client_id = client.id
      vim.schedule(flush)
    end,
    on_attach = function(client, bufnr)
      -- Called right after the didOpen of `bufnr`: changes from now on are ours to send.
      sync.attach(bufnr, client)
    end,
    on_exit = function(code, signal, id)
      dead[id] = true
      local expected = M.stopping == id
      if not expected and (code ~= 0 or (signal ~= 0 and signal ~= 15)) then
        swallow_quit_warning(id)
      end
      vim.schedule(function()
        M.exited(id, code, signal, expected)
      end)
    end,
  }
end

--- Handles the exit of client `id`: forgets its buffers and, unless it was stopped on
--- purpose, says so once and starts a new daemon for the buffers that had fields.
function M.exited(id, code, signal, expected)
  if client_id ~= nil and id ~= client_id then
    return
  end
  local was_ready = ready
  local pending = queue
  client_id, ready, queue = nil, false, {}
  local had, auto = {}, {}
  for bufnr in pairs(uris) do
    sync.detach(bufnr)
    if api.nvim_buf_is_valid(bufnr) and #fields.reopening(bufnr) > 0 then
      table.insert(had, bufnr)
    else
      fields.forget(bufnr)
      if api.nvim_buf_is_valid(bufnr) and M.auto[bufnr] then
        table.insert(auto, bufnr)
      end
    end
  end
  uris = {}
  if M.stopping == id then
    M.stopping = nil
  end
  -- Requests waiting for initialize fail without a message each: one message says why.
  for _, fn in ipairs(pending) do
    fn(true)
  end
  local function lose()
    for _, bufnr in ipairs(had) do
      fields.forget(bufnr)
    end
    if M.on_lost then
      M.on_lost(had)
    end
  end
  if expected then
    lose()
    return
  end
  local how = signal ~= 0 and ('signal %d'):format(signal) or ('code %d'):format(code)
  if not was_ready then
    say(('the daemon exited at start-up (%s): check cmd in setup(), now %s'):format(how, vim.inspect(M.config.cmd)), vim.log.levels.ERROR)
    lose()
    return
  end
  local now = vim.loop.now()
  restarts = vim.tbl_filter(function(t)
    return now - t < RESTART_WINDOW
  end, restarts)
  if #restarts >= RESTARTS then
    restarts = {}
    say(('the daemon stopped (%s), %d times within a minute: fields are off until you open one again'):format(how, RESTARTS + 1), vim.log.levels.ERROR)
    lose()
    return
  end
  table.insert(restarts, now)
  say(('the daemon stopped (%s); restarted it, fields kept'):format(how))
  if not M.start() then
    lose()
    return
  end
  for _, bufnr in ipairs(had) do
    M.attach(bufnr)
  end
  -- The daemon opens their rule fields again when they open.
  for _, bufnr in ipairs(auto) do
    M.attach(bufnr)
  end
  table.insert(queue, function(failed)
    if failed then
      return
    end
    if M.on_restart then
      M.on_restart(had)
    end
  end)
  if ready then
    flush()
  end
end

--- Whether vim.lsp.start may reuse `client`: a live maskd. A client whose daemon exited is
--- still listed for a moment after on_exit (0.11 drops it later), and reusing it would leave
--- the plugin without a daemon.
local function reuse(client)
  return client.name == 'maskd' and not dead[client.id]
    and not (client.is_stopped and client.is_stopped(client))
end

--- Starts the daemon unless it runs already, and attaches `bufnr` when given.
--- Returns the client id, or nil when the command cannot be started.
---@param bufnr integer|nil
---@return integer|nil
function M.start(bufnr)
  local c = M.get()
  if not c then
    if vim.fn.executable(M.config.cmd[1]) ~= 1 then
      -- Once per command, in one line: which option names the binary.
      local cmd = tostring(M.config.cmd[1])
      if said_missing ~= cmd then
        said_missing = cmd
        say(("cannot run '%s': set cmd in require('maskd').setup{} to the maskd binary"):format(cmd), vim.log.levels.ERROR)
      end
      return nil
    end
    said_missing = nil
    local id
    if vim.lsp.start then
      -- 0.8 attaches the current buffer, 0.9 and 0.10 `bufnr`; 0.11 honours attach = false.
      id = vim.lsp.start(make_config(), { bufnr = bufnr, reuse_client = reuse, attach = bufnr ~= nil })
    else
      id = vim.lsp.start_client(make_config())
    end
    if not id then
      return nil
    end
    client_id = id
  end
  if bufnr then
    M.attach(bufnr)
  end
  return client_id
end

--- Attaches `bufnr` to the daemon, starting it if needed; a buffer attaches once.
function M.attach(bufnr)
  bufnr = bufnr == 0 and api.nvim_get_current_buf() or bufnr
  if not client_id and not M.start() then
    return false
  end
  -- buf_attach_client returns nothing for a buffer attached already.
  if not vim.lsp.buf_is_attached(bufnr, client_id) and not vim.lsp.buf_attach_client(bufnr, client_id) then
    return false
  end
  uris[bufnr] = vim.uri_from_bufnr(bufnr)
  return true
end

--- The buffer whose document is `uri`, among the attached ones, or nil.
function M.bufnr(uri)
  for bufnr, u in pairs(uris) do
    if u == uri and api.nvim_buf_is_valid(bufnr) then
      return bufnr
    end
  end
  local bufnr = vim.fn.bufnr(vim.uri_to_fname(uri))
  return bufnr ~= -1 and bufnr or nil
end

--- Tells the daemon of workspace folder `dir` (a directory holding a `.maskd.json`) unless it
--- knows it: at start, or with workspace/didChangeWorkspaceFolders. Call it before attaching
--- a buffer under `dir`, so that the buffer opens under the folder's rules.
function M.add_folder(dir)
  ensure_root()
  if vim.tbl_contains(M.folders, dir) then
    return
  end
  table.insert(M.folders, dir)
  if not M.get() then
    return
  end
  local folder = workspace_folder(dir)
  local c = M.get()
  if type(c.workspace_folders) == 'table' then
    table.insert(c.workspace_folders, folder)
  end
  M.notify('workspace/didChangeWorkspaceFolders', { event = { added = { folder }, removed = {} } })
end

--- Forgets `bufnr` (it was wiped out).
function M.forget(bufnr)
  uris[bufnr] = nil
  M.auto[bufnr] = nil
  sync.detach(bufnr)
end

--- Sends request `method` once the daemon is initialized; `handler(err, result)` runs on
--- the main loop. `bufnr` is attached first. `params` may be a function, called when the
--- request goes out (after the didOpen, so that the version it names is the daemon's); when
--- it returns nil and an error, that error is the answer and nothing is sent. An error with
--- `quiet` set has been told already (the daemon is missing or died).
function M.request(bufnr, method, params, handler)
  if not M.attach(bufnr) then
    handler({ code = -32603, message = 'maskd is not running', quiet = true }, nil)
    return
  end
  local function send(failed)
    local c = not failed and M.get()
    if not c then
      handler({ code = -32603, message = 'maskd is not running', quiet = true }, nil)
      return
    end
    local function on_reply(err, result)
      handler(err, result)
    end
    local p, why = params, nil
    if type(params) == 'function' then
      p, why = params()
      if p == nil then
        handler(why, nil)
        return
      end
    end
    local ok
    if vim.fn.has('nvim-0.11') == 1 then
      ok = c:request(method, p, on_reply, bufnr)
    else
      ok = c.request(method, p, on_reply, bufnr)
    end
    if not ok then
      handler({ code = -32603, message = 'maskd: could not send ' .. method }, nil)
    end
  end
  if ready then
    send()
  else
    table.insert(queue, send)
  end
end

--- Runs `fn(failed)` once the daemon is initialized, `bufnr` attached first; `failed` is
--- true when it could not start or died first (that has been said already).
function M.when_ready(bufnr, fn)
  if not M.attach(bufnr) then
    fn(true)
  elseif ready then
    fn(false)
  else
    table.insert(queue, function(failed)
      fn(failed == true)
    end)
  end
end

--- Forgets the restarts counted so far (for the tests).
function M._forget_restarts()
  restarts = {}
end

--- Whether the daemon has answered initialize.
function M.ready()
  return ready and M.get() ~= nil
end

--- The daemon's capabilities as it sent them (0.7 keeps them raw in `server_capabilities`
--- and the cleaned view in `resolved_capabilities`; later versions only the former).
function M.capabilities()
  local c = M.get()
  return c and c.server_capabilities or nil
end

--- A list the daemon announced in `capabilities.experimental.maskd[key]`, or {}.
---@return string[]
local function announced(key)
  local caps = M.capabilities()
  local ext = caps and type(caps.experimental) == 'table' and caps.experimental.maskd
  if type(ext) == 'table' and type(ext[key]) == 'table' then
    return ext[key]
  end
  return {}
end

--- The preset names the daemon announced in `capabilities.experimental.maskd.presets`.
---@return string[]
function M.presets()
  return announced('presets')
end

--- The region codes the `phone` preset takes (`capabilities.experimental.maskd.phoneRegions`).
---@return string[]
function M.phone_regions()
  return announced('phoneRegions')
end

--- The region codes the `postal` preset takes (`capabilities.experimental.maskd.postalRegions`).
---@return string[]
function M.postal_regions()
  return announced('postalRegions')
end


--- Stops the daemon (shutdown, then exit).
function M.stop()
  if client_id then
    M.stopping = client_id
    vim.lsp.stop_client(client_id)
  end
end

return M
