-- Positions and edits: UTF-16 offsets to byte columns and back, applying the daemon's
-- TextEdits so they join the person's undo step, and placing the cursor.
local M = {}

local api = vim.api
local has_011 = vim.fn.has('nvim-0.11') == 1

--- The encoding of every position on the wire; the plugin asks for it and always uses it.
M.encoding = 'utf-16'

--- The byte column of UTF-16 offset `col` in `line`, clamped to the line.
---@param line string
---@param col integer
---@return integer
function M.byte_col(line, col)
  if col <= 0 then
    return 0
  end
  local ok, byte
  if has_011 then
    ok, byte = pcall(vim.str_byteindex, line, 'utf-16', col, false)
  else
    ok, byte = pcall(vim.str_byteindex, line, col, true)
  end
  if not ok or byte > #line then
    return #line
  end
  return byte
end

--- The UTF-16 offset of byte column `byte` in `line`, clamped to the line.
---@param line string
---@param byte integer
---@return integer
function M.utf16_col(line, byte)
  byte = math.max(0, math.min(byte, #line))
  -- Move back to the start of a UTF-8 sequence so a byte inside a character counts as that character.
  while byte > 0 and byte < #line and bit.band(line:byte(byte + 1), 0xC0) == 0x80 do
    byte = byte - 1
  end
  if has_011 then
    return vim.str_utfindex(line, 'utf-16', byte, false)
  end
  local _, utf16 = vim.str_utfindex(line, byte)
  return utf16
end

--- The text of line `lnum` (0-based) of `bufnr`, or '' past the end.
function M.line(bufnr, lnum)
  return api.nvim_buf_get_lines(bufnr, lnum, lnum + 1, false)[1] or ''
end

--- The LSP position of a (0-based row, byte column) place in `bufnr`.
function M.position(bufnr, row, byte)
  return { line = row, character = M.utf16_col(M.line(bufnr, row), byte) }
end

--- The document version the daemon has for `bufnr`, after sending it any change still
--- queued (see maskd.sync); the buffer's changedtick when maskd.sync does not track it.
---@return integer
function M.version(bufnr)
  local sync = require('maskd.sync')
  sync.flush(bufnr)
  local v = sync.version(bufnr)
  if v then
    return v
  end
  local versions = vim.lsp.util.buf_versions
  v = versions and versions[bufnr]
  if type(v) ~= 'number' then
    v = api.nvim_buf_get_changedtick(bufnr)
  end
  return v
end

--- Applies `edits` (LSP TextEdits against the current version of `bufnr`).
--- With `join`, `undojoin` runs first so that one `u` undoes the person's change and the
--- formatting together (it fails harmlessly right after an undo, hence the pcall).
--- Returns the versions the edits themselves produced, so their echo can be recognised.
---@return table<integer, boolean> own versions
function M.apply(bufnr, edits, join)
  local own = {}
  if not edits or #edits == 0 then
    return own
  end
  local before = M.version(bufnr)
  api.nvim_buf_call(bufnr, function()
    if join then
      pcall(vim.cmd, 'undojoin')
    else
      -- An undo step of its own (an open, a mask change), even right after a change made
      -- without a keystroke between: setting 'undolevels' closes the current undo block.
      vim.bo[bufnr].undolevels = vim.bo[bufnr].undolevels
    end
    -- apply_text_edits marks the buffer listed; keep a scratch buffer as it was.
    local listed = vim.bo[bufnr].buflisted
    vim.lsp.util.apply_text_edits(edits, bufnr, M.encoding)
    vim.bo[bufnr].buflisted = listed
  end)
  local after = M.version(bufnr)
  for v = before + 1, after do
    own[v] = true
  end
  return own
end

--- LSP Position `pos` moved by `list` (TextEdits against the text it is in) as a caret
--- moves with text changed around it: an edit before it (or inserting at it) shifts it, an
--- edit over it puts it after the edit's new text, an edit after it leaves it.
function M.shifted(pos, list)
  -- Only the edits on the caret's line move it (a range command brings one per line).
  local sorted = vim.tbl_filter(function(e)
    return e.range.start.line == pos.line and e.range['end'].line == pos.line
  end, list)
  table.sort(sorted, function(a, b)
    return a.range.start.line < b.range.start.line
      or a.range.start.line == b.range.start.line and a.range.start.character < b.range.start.character
  end)
  local delta = 0
  for _, e in ipairs(sorted) do
    local r = e.range
    if r.start.line == pos.line and r['end'].line == pos.line and r.start.character <= pos.character then
      local len = M.utf16_col(e.newText or '', #(e.newText or ''))
      if r['end'].character <= pos.character then
        delta = delta + len - (r['end'].character - r.start.character)
      else
        return { line = pos.line, character = r.start.character + delta + len }
      end
    end
  end
  return { line = pos.line, character = pos.character + delta }
end

--- Puts the cursor of the current window on `pos` (an LSP Position) when it shows `bufnr`.
--- In Insert mode the cursor goes between characters as the caret does; in Normal mode it
--- sits on the character after the caret (Neovim moves it back when that is past the end).
function M.set_cursor(bufnr, pos)
  if not pos or pos == vim.NIL or api.nvim_get_current_buf() ~= bufnr then
    return
  end
  local row = math.min(pos.line, api.nvim_buf_line_count(bufnr) - 1)
  api.nvim_win_set_cursor(0, { row + 1, M.byte_col(M.line(bufnr, row), pos.character) })
end

return M
