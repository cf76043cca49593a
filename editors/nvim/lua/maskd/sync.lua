-- Document sync that says where an edit was made, not only what it changed.
--
-- Neovim's built-in incremental sync diffs the old and new lines and reports the change at
-- the longest common prefix, so deleting the second `1` of `4111` reaches the server as a
-- deletion of the last one. The text is the same, but the daemon puts the caret after the
-- entered character it was told about, and it would jump to the end of every run of equal
-- digits. This module sends didChange itself, and the built-in sync is switched off for the
-- maskd client (textDocumentSync.change = None).
--
-- It diffs, as the built-in client does, the lines that changed against its copy of them,
-- with the buffer's changedtick as the version. Two things differ. The change starts where
-- the first splice that on_bytes reported starts, when that lies within the common prefix:
-- any start there (with the common suffix after it trimmed) describes the same change, so
-- a stale hint gives another correct change, never a wrong one; on_bytes is read for that
-- position only, since during some commands (`:s`, `J`) it comes before the buffer has its
-- new text. And the change goes out once the command that made it has finished (from a
-- scheduled callback, or when a request or the didFormat handler flushes), as one diff over
-- the lines it changed when it added or removed lines: `J` changes a line and then deletes
-- the next one, which line by line would read as a copy and a deletion of the field's line,
-- not as the joined line break it is. When it left as many lines as there were (typing,
-- `:s`), each changed line is its own change.
local M = {}

local api = vim.api
local edits = require('maskd.edits')

local states = {}

local function is_continuation(byte)
  return byte ~= nil and byte >= 0x80 and byte < 0xC0
end

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
    -- What the daemon announced, for :checkhealth.
    M.announced = type(sync) == 'table' and sync.change or sync
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

--- Whether the change about to be sent came from an undo or a redo, recording the undo
--- state: an undo lowers changenr(), a redo raises it to a number the buffer has had before,
--- a new change (or one joined to the last) never does.
local function undo_or_redo(bufnr, s)
  local now = api.nvim_buf_call(bufnr, vim.fn.changenr)
  local last, highest = s.changenr or now, s.highest or now
  s.changenr, s.highest = now, math.max(highest, now)
  return now < last or (now > last and now <= highest)
end

local function send(bufnr, s, changes, tick)
  local version = math.max(tick, s.version + 1)
  s.version = version
  if undo_or_redo(bufnr, s) then
    s.undone[version] = true
  end
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

--- The (row, byte column) of byte offset `off` in `lines` (each followed by a line break),
--- the first of them being row `first`.
local function locate(lines, first, off)
  for i, line in ipairs(lines) do
    if off <= #line then
      return first + i - 1, off
    end
    off = off - #line - 1
  end
  return first + #lines, 0
end

--- The change that turns `old` (lines first..last-1 as they were) into `new` (as they are),
--- starting at `hint` (a byte offset into the old lines' text) when it can. Returns nil when
--- nothing changed.
local function diff(old, new, first, hint)
  local o = #old > 0 and table.concat(old, '\n') .. '\n' or ''
  local n = #new > 0 and table.concat(new, '\n') .. '\n' or ''
  local shorter = math.min(#o, #n)
  local p = 0
  while p < shorter and o:byte(p + 1) == n:byte(p + 1) do
    p = p + 1
  end
  while p > 0 and is_continuation(o:byte(p + 1)) do
    p = p - 1
  end
  local start = p
  if hint and hint <= p and not is_continuation(o:byte(hint + 1)) then
    start = hint
  end
  local t = 0
  local room = shorter - start
  while t < room and o:byte(#o - t) == n:byte(#n - t) do
    t = t + 1
  end
  while t > 0 and is_continuation(o:byte(#o - t + 1)) do
    t = t - 1
  end
  local text = n:sub(start + 1, #n - t)
  if start == #o - t and text == '' then
    return nil
  end
  local sr, sc = locate(old, first, start)
  local er, ec = locate(old, first, #o - t)
  local function col(row, byte)
    local line = old[row - first + 1]
    return line and edits.utf16_col(line, byte) or 0
  end
  return {
    range = {
      start = { line = sr, character = col(sr, sc) },
      ['end'] = { line = er, character = col(er, ec) },
    },
    text = text,
  }
end

--- Sends the change between the copy and the buffer over the lines changed since the last
--- didChange, and makes the copy follow.
local function send_pending(bufnr, s)
  local d = s.dirty
  if not d then
    return
  end
  s.dirty = nil
  local tick = api.nvim_buf_get_changedtick(bufnr)
  if not vim.bo[bufnr].eol or vim.bo[bufnr].binary then
    -- Without a final line break the line model below does not hold: send the text.
    s.lines, s.hint = api.nvim_buf_get_lines(bufnr, 0, -1, true), nil
    send(bufnr, s, { { text = full_text(bufnr) } }, tick)
    return
  end
  local new = api.nvim_buf_get_lines(bufnr, d.first, d.new_last, true)
  local old = {}
  for i = d.first + 1, d.old_last do
    table.insert(old, s.lines[i] or '')
  end
  -- The hint counts in the old lines: a splice before every other one has the same place
  -- in the old lines and in the buffer.
  local hint
  local h = s.hint
  s.hint = nil
  if h and h.row >= d.first and h.row < d.old_last and h.col <= #old[h.row - d.first + 1] then
    hint = h.col
    for r = d.first + 1, h.row do
      hint = hint + #old[r - d.first] + 1
    end
  end
  local lines = {}
  for i = 1, d.first do
    lines[i] = s.lines[i]
  end
  for _, line in ipairs(new) do
    table.insert(lines, line)
  end
  for i = d.old_last + 1, #s.lines do
    table.insert(lines, s.lines[i])
  end
  s.lines = lines
  local changes = {}
  if #old == #new then
    -- As many lines as before (typing, `:s`): a change per changed line, so that an edit
    -- elsewhere on other lines never reaches over a field.
    for i = 1, #new do
      if old[i] ~= new[i] then
        local row = d.first + i - 1
        local change = diff({ old[i] }, { new[i] }, row, h and h.row == row and h.col or nil)
        table.insert(changes, change)
      end
    end
  else
    table.insert(changes, diff(old, new, d.first, hint))
  end
  if #changes > 0 then
    send(bufnr, s, changes, tick)
  end
end

--- Records that the buffer's lines first..last-1 are now first..new_last-1, in the region
--- still to send.
local function mark(s, first, last, new_last)
  local d = s.dirty
  if not d then
    s.dirty = { first = first, old_last = last, new_last = new_last }
    return
  end
  -- Lines after the region map to the copy shifted by old_last - new_last.
  local upto = math.max(d.new_last, last)
  d.old_last = upto + (d.old_last - d.new_last)
  d.new_last = upto + (new_last - last)
  d.first = math.min(d.first, first)
end

--- Called with the buffer before each of its didChange notifications goes out (maskd.init
--- closes there the fields whose opening an undo took back).
M.before_send = nil

local function flush_safely(bufnr, s)
  if M.before_send then
    M.before_send(bufnr)
  end
  local ok, err = pcall(send_pending, bufnr, s)
  if not ok then
    -- Never leave the daemon with other text: start over from the whole of it.
    s.lines, s.dirty, s.hint = api.nvim_buf_get_lines(bufnr, 0, -1, true), nil, nil
    send(bufnr, s, { { text = full_text(bufnr) } }, api.nvim_buf_get_changedtick(bufnr))
    vim.notify('maskd: document sync: ' .. tostring(err), vim.log.levels.DEBUG)
  end
end

--- Sends the changes made since the last didChange of `bufnr`, if any. Changes go out by
--- themselves once the command that made them has finished; requests flush first.
function M.flush(bufnr)
  local s = states[bufnr]
  if s and s.dirty and api.nvim_buf_is_loaded(bufnr) then
    flush_safely(bufnr, s)
  end
end

--- Whether version `version` of `bufnr` was made by an undo or a redo, whose didFormat is
--- not applied: an edit after an undo starts a new branch of the undo tree, and the redo
--- would be lost (`<C-r>`: Already at newest change). Forgets the versions before it.
function M.undone(bufnr, version)
  local s = states[bufnr]
  if not s then
    return false
  end
  for v in pairs(s.undone) do
    if v < version then
      s.undone[v] = nil
    end
  end
  return s.undone[version] == true
end

--- The version of the last didChange sent for `bufnr`, or nil when it is not tracked here.
function M.version(bufnr)
  local s = states[bufnr]
  return s and s.version or nil
end

--- Whether everything `bufnr` holds has been sent: the copy the changes are diffed against is
--- the buffer's text.
function M.in_sync(bufnr)
  local s = states[bufnr]
  return s ~= nil and not s.dirty and vim.deep_equal(s.lines, api.nvim_buf_get_lines(bufnr, 0, -1, true))
end

--- Tracks `bufnr` for `client` from now on: call right after its didOpen was sent. A
--- buffer attached again (a restarted daemon) starts over from the text its didOpen sent;
--- the callbacks of the earlier attachment detach themselves.
function M.attach(bufnr, client)
  local changenr = api.nvim_buf_call(bufnr, vim.fn.changenr)
  local s = {
    client_id = client.id,
    -- The undo state at the last didChange, the highest it has been, and the versions made
    -- by an undo or a redo (see M.undone).
    changenr = changenr,
    highest = changenr,
    undone = {},
    lines = api.nvim_buf_get_lines(bufnr, 0, -1, true),
    -- The buffer's line count after the last on_lines.
    count = api.nvim_buf_line_count(bufnr),
    -- The version of the didOpen just sent: 0 in 0.7, which records it in buf_versions.
    version = vim.lsp.util.buf_versions and tonumber(vim.lsp.util.buf_versions[bufnr])
      or api.nvim_buf_get_changedtick(bufnr),
  }
  states[bufnr] = s
  api.nvim_buf_attach(bufnr, false, {
    on_bytes = function(_, buf, _, sr, sc)
      if states[buf] ~= s then
        return true
      end
      -- The first splice since the last didChange: the others may have moved it.
      if not s.hint then
        s.hint = { row = sr, col = sc }
      end
    end,
    on_lines = function(_, buf, _, first, last, new_last)
      if states[buf] ~= s then
        return true
      end
      local count = api.nvim_buf_line_count(buf)
      if count == 1 and s.count + new_last - last == 0 then
        -- Deleting every line leaves the buffer one empty line, which on_lines does not count
        -- (an undo then replaces it): it is the text that took their place.
        new_last = new_last + 1
      end
      s.count = count
      mark(s, first, last, new_last)
      -- A command may be half done (`J` changes a line, then deletes the next one): the
      -- change goes out when it has finished.
      if not s.scheduled then
        s.scheduled = true
        vim.schedule(function()
          s.scheduled = false
          if states[buf] == s then
            M.flush(buf)
          end
        end)
      end
    end,
    on_reload = function(_, buf)
      if states[buf] == s then
        -- The built-in client sends didClose and didOpen with the new text, and the daemon
        -- closes the document's fields.
        s.lines, s.hint, s.dirty = api.nvim_buf_get_lines(buf, 0, -1, true), nil, nil
        s.count = #s.lines
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
