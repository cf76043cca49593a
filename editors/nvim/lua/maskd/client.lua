-- The one maskd daemon of this Neovim instance: starting or reusing it, attaching buffers,
-- and sending requests once it is initialized. Hides the differences between Neovim 0.7
-- (`vim.lsp.start_client`, `client.request`) and later versions (`vim.lsp.start`,
-- `client:request`).
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
  return caps
end

local function make_config()
  local handlers = {}
  for method, fn in pairs(M.handlers) do
    handlers[method] = fn
  end
  return {
    name = 'maskd',
    cmd = M.config.cmd,
    root_dir = vim.loop.cwd(),
    capabilities = capabilities(),
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
      vim.schedule(function()
        if id == client_id or client_id == nil then
          client_id, ready, queue = nil, false, {}
          for bufnr in pairs(uris) do
            fields.forget(bufnr)
            sync.detach(bufnr)
          end
          uris = {}
        end
        if code ~= 0 and not M.stopping then
          vim.notify(('maskd: the daemon exited with code %d (signal %d)'):format(code, signal), vim.log.levels.WARN)
        end
        M.stopping = false
      end)
    end,
  }
end

local function reuse(client)
  return client.name == 'maskd'
end

--- Starts the daemon unless it runs already, and attaches `bufnr` when given.
--- Returns the client id, or nil when the command cannot be started.
---@param bufnr integer|nil
---@return integer|nil
function M.start(bufnr)
  local c = M.get()
  if not c then
    if vim.fn.executable(M.config.cmd[1]) ~= 1 then
      vim.notify('maskd: cannot run ' .. tostring(M.config.cmd[1]), vim.log.levels.ERROR)
      return nil
    end
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

--- Forgets `bufnr` (it was wiped out).
function M.forget(bufnr)
  uris[bufnr] = nil
  sync.detach(bufnr)
end

--- Sends request `method` once the daemon is initialized; `handler(err, result)` runs on
--- the main loop. `bufnr` is attached first. `params` may be a function, called when the
--- request goes out (after the didOpen, so that the version it names is the daemon's).
function M.request(bufnr, method, params, handler)
  if not M.attach(bufnr) then
    handler({ code = -32603, message = 'maskd is not running' }, nil)
    return
  end
  local function send()
    local c = M.get()
    if not c then
      handler({ code = -32603, message = 'maskd is not running' }, nil)
      return
    end
    local function on_reply(err, result)
      handler(err, result)
    end
    local p = type(params) == 'function' and params() or params
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

--- The preset names the daemon announced in `capabilities.experimental.maskd.presets`.
---@return string[]
function M.presets()
  local caps = M.capabilities()
  local ext = caps and type(caps.experimental) == 'table' and caps.experimental.maskd
  if type(ext) == 'table' and type(ext.presets) == 'table' then
    return ext.presets
  end
  return {}
end

--- Stops the daemon (shutdown, then exit).
function M.stop()
  if client_id then
    M.stopping = true
    vim.lsp.stop_client(client_id)
  end
end

return M
