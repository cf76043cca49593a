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

--- A new buffer of a .txt file holding `lines`, current, attached to maskd started for `name` in the plain-client
--- mode, once `initialize` is answered. - Returns: the buffer, the client and its id.
function H.plain_buffer(name, lines)
  vim.o.showmode = false
  local buf = vim.api.nvim_create_buf(true, false)
  vim.api.nvim_buf_set_name(buf, vim.fn.tempname() .. '.txt')
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  local id = H.start(name, vim.fn.getcwd(), buf)
  local client = vim.lsp.get_client_by_id(id)
  H.wait_for(name, 'initialize', function() return client.initialized end)
  return buf, client, id
end

--- Stops the client `id` and waits for it to go.
function H.stop(id)
  vim.lsp.stop_client(id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(id) == nil end, 10)
end

--- Fails `name` unless line 1 of `buf` is still `want` after 200 ms: nothing more arrived (an echo formatted again).
function H.line_stays(name, buf, want)
  vim.wait(200)
  local line = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]
  if line ~= want then H.fail(name, 'the line became ' .. line) end
end

--- Stops the client `id`, reports `name` passed (`what` it checked) and quits.
function H.pass(name, id, what)
  H.stop(id)
  io.stdout:write('PASS ' .. name .. ': ' .. what .. '\n')
  vim.cmd('qall!')
end

--- Runs `run`, failing `name` with the traceback of any error.
function H.main(name, run)
  local ok, err = xpcall(run, debug.traceback)
  if not ok then H.fail(name, tostring(err)) end
end

return H
