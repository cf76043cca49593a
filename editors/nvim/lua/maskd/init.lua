-- maskd for Neovim: as-you-type masks for phone, card and ID fields, formatted by the maskd
-- daemon over LSP. setup() configures and starts it; the commands of plugin/maskd.lua call
-- the functions below; the `maskd/didFormat` handler applies the daemon's formatting.
local M = {}

local api = vim.api
local client = require('maskd.client')
local edits = require('maskd.edits')
local fields = require('maskd.fields')

local defaults = {
  -- The daemon's command line.
  cmd = { 'maskd' },
  -- Named masks of your own: name -> MaskSpec (a bracket notation string or an object).
  presets = {},
  -- Show the placeholder still to fill as virtual text after each field.
  virtual_text = true,
  -- Start the daemon in setup() rather than with the first field.
  autostart = true,
}

M.config = vim.deepcopy(defaults)
local configured = false

--- Configures the plugin and starts (or reuses) the one daemon of this Neovim instance.
---@param opts table|nil see |maskd-setup|
function M.setup(opts)
  opts = opts or {}
  local config = vim.tbl_extend('force', vim.deepcopy(defaults), opts)
  if type(config.cmd) == 'string' then
    config.cmd = { config.cmd }
  end
  vim.validate({
    cmd = { config.cmd, 'table' },
    presets = { config.presets, 'table' },
    virtual_text = { config.virtual_text, 'boolean' },
  })
  M.config = config
  client.config = config
  fields.virtual_text = config.virtual_text
  configured = true
  vim.cmd('highlight default link MaskdPlaceholder Comment')
  local group = api.nvim_create_augroup('maskd', { clear = true })
  api.nvim_create_autocmd('BufWipeout', {
    group = group,
    callback = function(args)
      fields.forget(args.buf)
      client.forget(args.buf)
    end,
  })
  if config.autostart then
    client.start()
  end
end

local function ensure_setup()
  if not configured then
    M.setup()
  end
end

local function notify(msg, level)
  vim.notify('maskd: ' .. msg, level or vim.log.levels.INFO)
end

-- Resolving masks ---------------------------------------------------------------------

--- Preset names for completion: your own presets, then the daemon's.
---@return string[]
function M.preset_names()
  local names, seen = {}, {}
  local own = vim.tbl_keys(M.config.presets)
  table.sort(own)
  for _, list in ipairs({ own, client.presets() }) do
    for _, name in ipairs(list) do
      if not seen[name] then
        seen[name] = true
        table.insert(names, name)
      end
    end
  end
  return names
end

--- Completion of :MaskdField and :MaskdSetMask: preset names starting with `arglead`.
function M.complete(arglead)
  return vim.tbl_filter(function(name)
    return name:sub(1, #arglead) == arglead
  end, M.preset_names())
end

--- The MaskSpec that a command argument stands for: one of your presets, a daemon preset
--- (`{"preset": name}`), a JSON object (when it starts with `{"`), or bracket notation.
function M.resolve_mask(arg)
  arg = vim.trim(arg or '')
  if M.config.presets[arg] ~= nil then
    return M.config.presets[arg]
  end
  if vim.tbl_contains(client.presets(), arg) then
    return { preset = arg }
  end
  if arg:sub(1, 2) == '{"' then
    local ok, spec = pcall(vim.fn.json_decode, arg)
    if ok and type(spec) == 'table' then
      return spec
    end
  end
  return arg
end

-- Ranges ------------------------------------------------------------------------------

--- The VersionedTextDocumentIdentifier of `bufnr`: the daemon refuses a request made
--- against a version it is not at (-32801), rather than answer for other text.
local function document(bufnr)
  return { uri = vim.uri_from_bufnr(bufnr), version = edits.version(bufnr) }
end

local function lsp_range(bufnr, row, s, e)
  return { start = edits.position(bufnr, row, s), ['end'] = edits.position(bufnr, row, e) }
end

local function is_blank(ch)
  return ch == '' or ch:match('^%s$') ~= nil
end

--- The range :MaskdField takes without a selection, as (row, start byte, end byte).
--- On a non-blank character: the WORD around it. On a blank or an empty line: an empty
--- range right after the cursor's character, so a field opens after `Phone: `. In Insert
--- mode the caret is between characters: the WORD that ends at it, or an empty range there.
function M.word_range()
  local row, col = unpack(api.nvim_win_get_cursor(0))
  row = row - 1
  local line = edits.line(0, row)
  local insert = api.nvim_get_mode().mode:sub(1, 1) == 'i'
  local probe = insert and col or col + 1
  if is_blank(line:sub(probe, probe)) or probe == 0 then
    local at = insert and col or math.min(col + (line == '' and 0 or 1), #line)
    -- Step over the rest of a multibyte blank so the range starts on a character boundary.
    while at < #line and bit.band(line:byte(at + 1), 0xC0) == 0x80 do
      at = at + 1
    end
    return row, at, at
  end
  local s, e = probe, probe
  while s > 1 and not is_blank(line:sub(s - 1, s - 1)) do
    s = s - 1
  end
  while e < #line and not is_blank(line:sub(e + 1, e + 1)) do
    e = e + 1
  end
  return row, s - 1, e
end

--- The range of the last Visual selection, as (row, start byte, end byte), or nil and a
--- message when it is not on one line.
function M.visual_range(line1, line2)
  local s = vim.fn.getpos("'<")
  local e = vim.fn.getpos("'>")
  if line1 and (s[2] ~= line1 or e[2] ~= line2) then
    return nil, 'give no range, or select the text in Visual mode'
  end
  if s[2] ~= e[2] then
    return nil, 'a field is one line: select it within a line'
  end
  local row = s[2] - 1
  local line = edits.line(0, row)
  local first = math.min(s[3] - 1, #line)
  local last = math.min(e[3] - 1, #line)
  -- '> marks the first byte of the last character; the range ends after the character.
  if last < #line then
    last = last + 1
    while last < #line and bit.band(line:byte(last + 1), 0xC0) == 0x80 do
      last = last + 1
    end
  end
  return row, first, last
end

-- Field results -----------------------------------------------------------------------

local function finish(bufnr, cb, err, result)
  local b = fields.buf(bufnr)
  b.stats.replies = b.stats.replies + 1
  if cb then
    cb(err, result)
  end
end

local function report(err, opts)
  if not (opts and opts.silent) then
    notify(type(err) == 'table' and tostring(err.message) or tostring(err), vim.log.levels.ERROR)
  end
end

local function spec_of(mask, opts)
  if type(mask) == 'string' and opts.resolve ~= false then
    return M.resolve_mask(mask)
  end
  return mask
end

--- Applies an openField/setMask result: its edits when the buffer is still at `version`,
--- its cursor, and the field's state.
local function apply_field_result(bufnr, result)
  if type(result) ~= 'table' then
    return
  end
  local b = fields.buf(bufnr)
  if result.version == nil or result.version == edits.version(bufnr) then
    for v in pairs(edits.apply(bufnr, result.edits, false)) do
      b.own[v] = true
    end
    edits.set_cursor(bufnr, result.cursor)
  end
  if type(result.state) == 'table' then
    fields.update(bufnr, { result.state })
  end
end

--- Opens a field with mask `mask` (a preset name, bracket notation or a MaskSpec table).
--- opts: `range` (an LSP Range; default: the word under the cursor), `bufnr`, `field`,
--- `resolve` (false: a string is bracket notation, never a preset name), `silent` (no error
--- message). `cb(err, result)` runs when the daemon has answered.
function M.open_field(mask, opts, cb)
  ensure_setup()
  opts = opts or {}
  local bufnr = opts.bufnr or api.nvim_get_current_buf()
  local range = opts.range
  if not range then
    range = lsp_range(bufnr, M.word_range())
  end
  local function params()
    -- Preset names resolve once the daemon has said which presets it has.
    return { textDocument = document(bufnr), range = range, mask = spec_of(mask, opts), field = opts.field }
  end
  client.request(bufnr, 'maskd/openField', params, function(err, result)
    if err then
      report(err, opts)
    else
      apply_field_result(bufnr, result)
    end
    finish(bufnr, cb, err, result)
  end)
end

--- :MaskdField {preset|mask}: over the Visual selection when given a range, else the word
--- under the cursor.
function M.field_command(o)
  local range
  if o.range and o.range > 0 then
    local row, s, e = M.visual_range(o.line1, o.line2)
    if not row then
      notify(s, vim.log.levels.ERROR)
      return
    end
    range = lsp_range(0, row, s, e)
  end
  M.open_field(o.args, { range = range })
end

local function cursor_position(bufnr)
  local row, col = unpack(api.nvim_win_get_cursor(0))
  return edits.position(bufnr, row - 1, col)
end

--- Calls `fn(state)` with the daemon's FieldState at the cursor (maskd/formatHints), or
--- reports that there is none and calls `cb`.
local function with_field(bufnr, cb, fn, opts)
  local position = cursor_position(bufnr)
  local function params()
    return { textDocument = document(bufnr), position = position }
  end
  client.request(bufnr, 'maskd/formatHints', params, function(err, state)
    if err then
      report(err, opts)
      finish(bufnr, cb, err, nil)
    elseif type(state) ~= 'table' then
      if not (opts and opts.silent) then
        notify('no field under the cursor', vim.log.levels.WARN)
      end
      finish(bufnr, cb, nil, nil)
    else
      fn(state)
    end
  end)
end

--- Changes the mask of the field under the cursor; its entered characters re-flow and the
--- cursor keeps its count of entered characters to its left.
--- opts: `resolve`, `silent` as for open_field(). `cb(err, result)` runs at the end.
function M.set_mask(mask, opts, cb)
  ensure_setup()
  opts = opts or {}
  local bufnr = api.nvim_get_current_buf()
  with_field(bufnr, cb, function(state)
    local function params()
      local spec = spec_of(mask, opts)
      return { textDocument = document(bufnr), field = state.field, mask = spec, position = cursor_position(bufnr) }
    end
    client.request(bufnr, 'maskd/setMask', params, function(err, result)
      if err then
        report(err, opts)
      else
        apply_field_result(bufnr, result)
      end
      finish(bufnr, cb, err, result)
    end)
  end, opts)
end

--- Closes the field under the cursor; its text stays as it is.
function M.close(cb)
  ensure_setup()
  local bufnr = api.nvim_get_current_buf()
  with_field(bufnr, cb, function(state)
    local function params()
      return { textDocument = document(bufnr), field = state.field }
    end
    client.request(bufnr, 'maskd/closeField', params, function(err)
      if err then
        report(err)
      else
        fields.remove(bufnr, state.field)
      end
      finish(bufnr, cb, err, nil)
    end)
  end)
end

--- Echoes the state of the field under the cursor.
function M.info(cb)
  ensure_setup()
  local bufnr = api.nvim_get_current_buf()
  with_field(bufnr, cb, function(state)
    fields.update(bufnr, { state })
    local chunks = {
      { 'maskd ', 'Title' },
      { fields.describe(state) },
      { '  mask ' .. tostring(state.mask), 'Comment' },
    }
    if type(state.placeholder) == 'string' and state.placeholder ~= '' then
      table.insert(chunks, { '  to fill ' .. state.placeholder, 'Comment' })
    end
    api.nvim_echo(chunks, true, {})
    finish(bufnr, cb, nil, state)
  end)
end

--- Puts the fields of the current buffer in the quickfix list (maskd/fields) and opens it.
function M.fields_qf(cb)
  ensure_setup()
  local bufnr = api.nvim_get_current_buf()
  local function params()
    return { textDocument = document(bufnr) }
  end
  client.request(bufnr, 'maskd/fields', params, function(err, list)
    if err then
      report(err)
      finish(bufnr, cb, err, nil)
      return
    end
    list = type(list) == 'table' and list or {}
    fields.reset(bufnr, list)
    local items = {}
    for _, s in ipairs(list) do
      local r = s.range
      local line = edits.line(bufnr, r.start.line)
      table.insert(items, {
        bufnr = bufnr,
        lnum = r.start.line + 1,
        col = edits.byte_col(line, r.start.character) + 1,
        end_lnum = r['end'].line + 1,
        end_col = edits.byte_col(line, r['end'].character) + 1,
        text = ('%s  %s  (%s)'):format(s.text, fields.describe(s), tostring(s.mask)),
        type = s.valid == true and 'I' or (s.complete == true and 'E' or 'W'),
      })
    end
    vim.fn.setqflist({}, ' ', { title = 'maskd fields', items = items })
    if #items > 0 then
      vim.cmd('botright copen')
    else
      notify('no fields in this buffer')
    end
    finish(bufnr, cb, nil, list)
  end)
end

-- The didFormat handler ---------------------------------------------------------------

--- Handles `maskd/didFormat`: drops it when the buffer has moved past its version or when
--- it answers the plugin's own edits; otherwise applies its edits joined to the person's
--- undo step, places the cursor and records the fields. Sends nothing.
function M.on_did_format(err, params)
  if err or type(params) ~= 'table' or type(params.textDocument) ~= 'table' then
    return
  end
  local bufnr = client.bufnr(params.textDocument.uri)
  if not bufnr or not api.nvim_buf_is_loaded(bufnr) then
    return
  end
  local b = fields.buf(bufnr)
  local version = params.textDocument.version
  b.stats.formats = b.stats.formats + 1
  b.stats.last_version = version
  if b.own[version] then
    b.stats.echo = b.stats.echo + 1
    return
  end
  if version ~= edits.version(bufnr) then
    b.stats.stale = b.stats.stale + 1
    return
  end
  for v in pairs(b.own) do
    if v < version then
      b.own[v] = nil
    end
  end
  local list = type(params.edits) == 'table' and params.edits or {}
  for v in pairs(edits.apply(bufnr, list, true)) do
    b.own[v] = true
  end
  edits.set_cursor(bufnr, params.cursor)
  fields.update(bufnr, params.fields)
  b.last = { rejected = params.rejected, overflow = params.overflow }
  b.stats.applied = b.stats.applied + 1
  api.nvim_exec_autocmds('User', { pattern = 'MaskdFormat', modeline = false })
end

client.handlers['maskd/didFormat'] = function(err, params, ctx)
  M.on_did_format(err, params, ctx)
end

-- Statusline --------------------------------------------------------------------------

--- A statusline component: the state of the field under the cursor, or '' when there is
--- none (from the last state the daemon sent; no request is made).
---@return string
function M.status()
  local s = fields.under_cursor()
  if not s then
    return ''
  end
  return 'maskd ' .. fields.describe(s)
end

--- The last FieldState of the field under the cursor, or nil.
function M.field()
  return fields.under_cursor()
end

--- Attaches `bufnr` (default: the current buffer) to the daemon.
function M.attach(bufnr)
  ensure_setup()
  return client.attach(bufnr or api.nvim_get_current_buf())
end

--- Counters of the didFormat handler for `bufnr` (used by the tests and :checkhealth).
function M._stats(bufnr)
  return fields.buf(bufnr or api.nvim_get_current_buf()).stats
end

return M
