-- Document sync with the ranges Neovim itself reports.
--
-- Neovim's built-in incremental sync diffs the old and new lines, so deleting the second `1`
-- of `4111` reaches the server as a deletion of the last one: the text is the same, but the
-- daemon puts the caret after the k-th entered character of the edit it was told about, and
-- the caret would jump to the end of every run of equal digits. This module sends didChange
-- itself from `nvim_buf_attach`'s on_bytes, which reports the edit as Vim made it, and the
-- built-in sync is switched off for the maskd client (textDocumentSync.change = None).
--
-- Splices are queued as on_bytes reports them and sent in one didChange from the on_lines
-- that follows (for a keystroke on_bytes comes first) or, when on_lines came first (undo,
-- `o`), from a scheduled flush; requests flush first. The version sent is the buffer's
-- changedtick, as the built-in client sends and `vim.lsp.util.buf_versions` records. A
-- shadow copy of the text gives the old end of each range in UTF-16; when it disagrees with
-- the buffer, the whole text is sent instead.
local M = {}

local api = vim.api
local edits = require('maskd.edits')

local states = {}

local function full_text(bufnr)
  local text = table.concat(api.nvim_buf_get_lines(bufnr, 0, -1, true), '\n')
  if vim.bo[bufnr].eol and not vim.bo[bufnr].binary then
    text = text .. '\n'
  end
  return text
end

--- Makes the built-in client send no didChange for `client` (call from on_init, before any
--- buffer is attached). didOpen and didClose stay with the built-in client.
function M.disable_builtin(client)
  local caps = client.server_capabilities
  if type(caps) == 'table' then
    local sync = caps.textDocumentSync
    if type(sync) == 'table' then
      sync.change = 0
    else
      caps.textDocumentSync = { openClose = true, change = 0 }
    end
  end
  -- 0.7 decides from its cleaned-up copy of the capabilities.
  if vim.fn.has('nvim-0.8') == 0 and type(client.resolved_capabilities) == 'table' then
    client.resolved_capabilities.text_document_did_change = 0
  end
end

local function notify(bufnr, s, changes, version)
  local c = vim.lsp.get_client_by_id(s.client_id)
  if not c then
    return
  end
  -- The URI as the buffer is named now: 0.10 and later re-open a renamed buffer.
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr), version = version }, contentChanges = changes }
  if vim.fn.has('nvim-0.11') == 1 then
    c:notify('textDocument/didChange', params)
  else
    c.notify('textDocument/didChange', params)
  end
end

--- Sends what is queued for `bufnr` in one didChange.
function M.flush(bufnr)
  local s = states[bufnr]
  if not s or (#s.pending == 0 and not s.resync) then
    return
  end
  local version = math.max(api.nvim_buf_get_changedtick(bufnr), s.version + 1)
  local changes = s.pending
  if s.resync then
    s.text = full_text(bufnr)
    changes = { { text = s.text } }
  end
  s.pending, s.resync, s.version = {}, false, version
  notify(bufnr, s, changes, version)
end

--- The version of the last didChange sent for `bufnr`, or nil when it is not tracked here.
function M.version(bufnr)
  local s = states[bufnr]
  return s and s.version or nil
end

-- The UTF-16 column of byte offset `off` of `text`, counted from the start of its line.
local function utf16_at(text, off, col)
  return edits.utf16_col(text:sub(off - col + 1, off), col)
end

local function on_bytes(bufnr, sr, sc, off, oer, oec, ob, ner, nec)
  local s = states[bufnr]
  if s.resync then
    return
  end
  local er = sr + oer
  local ec = oer == 0 and sc + oec or oec
  local nr = sr + ner
  local nc = ner == 0 and sc + nec or nec
  local old = s.text
  -- The start must sit where the shadow has line `sr`: else the shadow went wrong.
  if off > #old or off - sc < 0 or (off - sc > 0 and old:sub(off - sc, off - sc) ~= '\n') then
    s.resync = true
    return
  end
  local count = api.nvim_buf_line_count(bufnr)
  local new
  if nr < count then
    new = table.concat(api.nvim_buf_get_text(bufnr, sr, sc, nr, nc, {}), '\n')
  elseif nr == count and nc == 0 and sr < count then
    -- Up to the end after the last line break.
    local last = api.nvim_buf_get_lines(bufnr, count - 1, count, true)[1]
    new = table.concat(api.nvim_buf_get_text(bufnr, sr, sc, count - 1, #last, {}), '\n') .. '\n'
  elseif sr == count and sc == 0 and nr == count and nc == 0 then
    new = ''
  else
    s.resync = true
    return
  end
  local change = {
    range = {
      start = { line = sr, character = utf16_at(old, off, sc) },
      ['end'] = { line = er, character = utf16_at(old, off + ob, ec) },
    },
    text = new,
  }
  s.text = old:sub(1, off) .. new .. old:sub(off + ob + 1)
  -- The lines the change left must read in the shadow as in the buffer.
  local consistent
  if sr >= count then
    consistent = #s.text == off + #new
  else
    local want = table.concat(api.nvim_buf_get_lines(bufnr, sr, math.min(nr, count - 1) + 1, true), '\n')
    local from = off - sc + 1
    local after = s.text:sub(from + #want, from + #want)
    consistent = s.text:sub(from, from + #want - 1) == want and (after == '\n' or after == '')
  end
  if not consistent then
    s.resync = true
    return
  end
  table.insert(s.pending, change)
  if not s.scheduled then
    s.scheduled = true
    vim.schedule(function()
      s.scheduled = false
      if states[bufnr] == s then
        M.flush(bufnr)
      end
    end)
  end
end

--- Tracks `bufnr` for `client` from now on: call right after its didOpen was sent. A
--- buffer attached again (a restarted daemon) starts over from the text its didOpen sent;
--- the callbacks of the earlier attachment detach themselves.
function M.attach(bufnr, client)
  local s = {
    client_id = client.id,
    text = full_text(bufnr),
    pending = {},
    resync = false,
    -- The version of the didOpen just sent: 0 in 0.7, which records it in buf_versions.
    version = vim.lsp.util.buf_versions and tonumber(vim.lsp.util.buf_versions[bufnr])
      or api.nvim_buf_get_changedtick(bufnr),
  }
  states[bufnr] = s
  api.nvim_buf_attach(bufnr, false, {
    on_bytes = function(_, buf, _, sr, sc, off, oer, oec, ob, ner, nec)
      if states[buf] ~= s then
        return true
      end
      local ok = pcall(on_bytes, buf, sr, sc, off, oer, oec, ob, ner, nec)
      if not ok then
        s.resync = true
      end
    end,
    on_lines = function(_, buf)
      if states[buf] ~= s then
        return true
      end
      M.flush(buf)
    end,
    on_reload = function(_, buf)
      if states[buf] == s then
        -- The built-in client sends didClose and didOpen with the new text, and the daemon
        -- closes the document's fields.
        s.text, s.pending, s.resync = full_text(buf), {}, false
        require('maskd.fields').forget(buf)
      end
    end,
    on_detach = function(_, buf)
      if states[buf] == s then
        states[buf] = nil
      end
    end,
  })
end

--- Stops tracking `bufnr` (the client stopped or the buffer was wiped out).
function M.detach(bufnr)
  states[bufnr] = nil
end

return M
