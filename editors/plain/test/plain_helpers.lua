-- maskd: what the Neovim scripts of editors/plain share: failing, waiting, and starting the built-in client in the
-- plain-client mode. Loaded with dofile() from this folder (run.sh runs the scripts here).
local H = {}

H.maskd = os.getenv('MASKD') or 'maskd'

--- Reports a failure of the script named `name` and exits 1.
function H.fail(name, message)
  io.stderr:write('FAIL ' .. name .. ': ' .. message .. '\n')
  vim.cmd('cquit 1')
end

--- Waits up to 5 s for `condition`, failing `name` with `what` when it does not come.
function H.wait_for(name, what, condition)
  if not vim.wait(5000, condition, 10) then H.fail(name, 'timed out waiting for ' .. what) end
end

--- Starts maskd in the plain-client mode with `root` as the workspace and attaches `buf`. - Returns: the client id.
function H.start(name, root, buf)
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  -- Neovim 0.7 applies versioned documentChanges but does not say so; saying it makes stale edits refused.
  capabilities.workspace.workspaceEdit.documentChanges = true
  local id = vim.lsp.start_client({
    name = 'maskd',
    cmd = { H.maskd, '--stdio' },
    root_dir = root,
    init_options = { edits = 'applyEdit' },
    capabilities = capabilities,
    flags = { debounce_text_changes = 0 },
    offset_encoding = 'utf-16',
  })
  if not id then H.fail(name, 'the client did not start') end
  vim.lsp.buf_attach_client(buf, id)
  return id
end

--- Stops the client `id` and waits for it to go.
function H.stop(id)
  vim.lsp.stop_client(id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(id) == nil end, 10)
end

return H
