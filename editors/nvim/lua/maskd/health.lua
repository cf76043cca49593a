-- :checkhealth maskd
local M = {}

-- 0.10 renamed the report functions (vim.health.start, ...); 0.7 has health.report_*.
local health = vim.health or require('health')
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local error = health.error or health.report_error
local info = health.info or health.report_info

function M.check()
  start('maskd')
  local v = vim.version()
  local version = ('%d.%d.%d'):format(v.major, v.minor, v.patch)
  if vim.fn.has('nvim-0.7') == 1 then
    ok('Neovim ' .. version)
  else
    error('Neovim ' .. version .. ': maskd needs 0.7 or later')
  end

  local maskd = require('maskd')
  local client = require('maskd.client')
  local cmd = maskd.config.cmd or {}
  local exe = cmd[1] and vim.fn.exepath(cmd[1]) or ''
  if exe ~= '' then
    ok('daemon command: ' .. table.concat(cmd, ' ') .. ' (' .. exe .. ')')
  else
    error('daemon command not found: ' .. tostring(cmd[1]), {
      'Build maskd (`swift build`) and set setup{cmd = {...}}',
    })
  end

  local c = client.get()
  if not c then
    warn('the daemon is not running', { 'It starts with setup{} or the first :MaskdField' })
    return
  end
  if not client.ready() then
    warn('the daemon has not answered initialize yet')
    return
  end
  local caps = client.capabilities() or {}
  -- The plugin sends didChange itself (maskd.sync) and turned the client's own off.
  local sync = require('maskd.sync')
  local builtin = type(caps.textDocumentSync) == 'table' and caps.textDocumentSync.change or caps.textDocumentSync
  if vim.fn.has('nvim-0.8') == 0 and c.resolved_capabilities then
    -- 0.7 decides from its cleaned-up copy of the capabilities.
    builtin = c.resolved_capabilities.text_document_did_change
  end
  if sync.announced == 2 then
    ok('the daemon syncs incrementally; didChange comes from maskd.sync')
  else
    warn('the daemon announced document sync kind ' .. tostring(sync.announced) .. ', not 2 (incremental)')
  end
  if builtin ~= 0 then
    warn("Neovim's own didChange is on too (kind " .. tostring(builtin) .. '): every change would reach maskd twice')
  end
  local ext = type(caps.experimental) == 'table' and caps.experimental.maskd
  if type(ext) == 'table' then
    ok(('maskd protocol version %s; presets: %s'):format(tostring(ext.version), table.concat(client.presets(), ', ')))
  else
    error('the server did not announce capabilities.experimental.maskd: is it maskd?')
  end
  info('position encoding: utf-16 (client); the daemon answered ' .. tostring(caps.positionEncoding or 'nothing'))
  local attached = 0
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.lsp.buf_is_attached(bufnr, c.id) then
      attached = attached + 1
      local s = maskd._stats(bufnr)
      info(
        ('buffer %d: %d didFormat (%d applied, %d stale, %d echo), %d fields'):format(
          bufnr,
          s.formats,
          s.applied,
          s.stale,
          s.echo,
          #require('maskd.fields').list(bufnr)
        )
      )
    end
  end
  ok(('client %d running, %d buffer(s) attached'):format(c.id, attached))
end

return M
