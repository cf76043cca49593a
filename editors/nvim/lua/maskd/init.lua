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
  autostart = false,
  -- Start Insert mode in a field opened empty from Normal mode, ready to type into it.
  insert_on_open = true,
  -- Field rules of your own (fields that open themselves), passed to the daemon as
  -- initializationOptions.rules, after those of a project's .maskd.json: a list of
  -- { files = glob, languages = { ... }, match = regex, mask = MaskSpec }.
  rules = nil,
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
  local checks = {
    { 'cmd', config.cmd, 'table' },
    { 'presets', config.presets, 'table' },
    { 'virtual_text', config.virtual_text, 'boolean' },
    { 'insert_on_open', config.insert_on_open, 'boolean' },
    { 'rules', config.rules, 'table', true },
  }
  for _, check in ipairs(checks) do
    if vim.fn.has('nvim-0.11') == 1 then
      -- 0.11 deprecates the table form (:checkhealth vim.deprecated).
      vim.validate(check[1], check[2], check[3], check[4])
    else
      vim.validate({ [check[1]] = { check[2], check[3], check[4] } })
    end
  end
  M.config = config
  client.config = config
  fields.virtual_text = config.virtual_text
  configured = true
  local group = api.nvim_create_augroup('maskd', { clear = true })
  api.nvim_create_autocmd('BufWipeout', {
    group = group,
    callback = function(args)
      fields.forget(args.buf)
      client.forget(args.buf)
    end,
  })
  -- Where rules may apply, a buffer is attached as it opens and the daemon decides which
  -- lines are fields; elsewhere the daemon starts with the first field command.
  api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    callback = function(args)
      M.attach_for_rules(args.buf)
    end,
  })
  -- A .maskd.json saved here takes effect at once, whether or not Neovim watches files for
  -- its servers.
  api.nvim_create_autocmd('BufWritePost', {
    group = group,
    pattern = '.maskd.json',
    callback = function(args)
      M.rules_file_saved(args.file)
    end,
  })
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(bufnr) then
      M.attach_for_rules(bufnr)
    end
  end
  if config.autostart then
    client.start()
  end
end

--- Tells the daemon that the `.maskd.json` at `path` was saved: it reads its folder's rules
--- again (workspace/didChangeWatchedFiles; a new folder joins the workspace instead), and the
--- buffers under that folder that were not attached are attached now.
function M.rules_file_saved(path)
  path = vim.fn.fnamemodify(path, ':p')
  local dir = vim.fn.fnamemodify(path, ':h')
  if client.get() and vim.tbl_contains(client.folders, dir) then
    client.notify('workspace/didChangeWatchedFiles', { changes = { { uri = vim.uri_from_fname(path), type = 2 } } })
  end
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    local name = api.nvim_buf_is_loaded(bufnr) and api.nvim_buf_get_name(bufnr) or ''
    if name:sub(1, #dir + 1) == dir .. '/' then
      M.attach_for_rules(bufnr)
    end
  end
end

--- Attaches `bufnr`, a file's buffer, when field rules may apply to it: rules in setup(), or
--- a `.maskd.json` in its directory or one above (that directory becomes a workspace folder).
--- Returns whether it attached.
function M.attach_for_rules(bufnr)
  if not api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return false
  end
  local name = api.nvim_buf_get_name(bufnr)
  -- Only files: a `scheme://` buffer has no folder and no rules file.
  if name == '' or name:match('^%a[%w+.-]*://') then
    return false
  end
  local folder = client.rules_folder(vim.fn.fnamemodify(name, ':p:h'))
  local own = type(M.config.rules) == 'table' and next(M.config.rules) ~= nil
  if not folder and not own then
    return false
  end
  if folder then
    client.add_folder(folder)
  end
  if not client.attach(bufnr) then
    return false
  end
  client.auto[bufnr] = true
  return true
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

--- Completion of :MaskdField and :MaskdSetMask: preset names starting with `arglead`, or after
--- `phone ` or `postal ` the region codes the daemon announced for it (`:MaskdField phone GB`).
function M.complete(arglead, cmdline)
  local preset = type(cmdline) == 'string' and cmdline:match('^%s*%S+%s+(%l+)%s+%S*$')
  if preset == 'phone' or preset == 'postal' then
    local lead = arglead:upper()
    return vim.tbl_filter(function(code)
      return code:sub(1, #lead) == lead
    end, preset == 'phone' and client.phone_regions() or client.postal_regions())
  end
  return vim.tbl_filter(function(name)
    return name:sub(1, #arglead) == arglead
  end, M.preset_names())
end

--- The MaskSpec that a command argument stands for: one of your presets, a daemon preset
--- (`{"preset": name}`), a JSON object (when it starts with `{"`), or bracket notation.
--- A word without brackets or spaces can only be a preset's name: when there is no such
--- preset, returns nil and a message that lists them.
function M.resolve_mask(arg)
  arg = vim.trim(arg or '')
  if M.config.presets[arg] ~= nil then
    return M.config.presets[arg]
  end
  if vim.tbl_contains(client.presets(), arg) then
    return { preset = arg }
  end
  -- `phone GB`: the phone preset for a region's national numbers; `postal GB`: its postal codes.
  local preset, region = arg:match('^(%l+)%s+(%a%a)$')
  if (preset == 'phone' or preset == 'postal') and vim.tbl_contains(client.presets(), preset) then
    return { preset = preset, region = region:upper() }
  end
  if arg:sub(1, 2) == '{"' then
    local ok, spec = pcall(vim.fn.json_decode, arg)
    if ok and type(spec) == 'table' then
      return spec
    end
  end
  if arg:match('^[%w._-]+$') then
    return nil, ("unknown preset '%s' (presets: %s)"):format(arg, table.concat(M.preset_names(), ', '))
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

--- Where :MaskdField opens without a selection, as an LSP Position for maskd/openField's
--- `at`: the daemon takes the word holding the character just before it (widened to the
--- words around it that the mask reads whole), or opens an empty field there after a blank.
--- In Normal mode the cursor stands on a character, so that is the place after it; in Insert
--- mode the caret itself.
function M.cursor_at()
  local row, col = unpack(api.nvim_win_get_cursor(0))
  row = row - 1
  local line = edits.line(0, row)
  if api.nvim_get_mode().mode:sub(1, 1) ~= 'i' and col < #line then
    col = col + 1
    -- Step over the rest of a multibyte character.
    while col < #line and bit.band(line:byte(col + 1), 0xC0) == 0x80 do
      col = col + 1
    end
  end
  return edits.position(0, row, col)
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
  if not (opts and opts.silent) and not (type(err) == 'table' and err.quiet) then
    notify(type(err) == 'table' and tostring(err.message) or tostring(err), vim.log.levels.ERROR)
  end
end

local function spec_of(mask, opts)
  if type(mask) == 'string' and opts.resolve ~= false then
    return M.resolve_mask(mask)
  end
  return mask
end

--- Request params from `build(spec)` once `mask` resolves, else nil and the reason (a
--- request made with nil params is not sent; see client.request).
local function with_spec(mask, opts, build)
  return function()
    local spec, why = spec_of(mask, opts)
    if spec == nil then
      return nil, { code = -32602, message = why }
    end
    return build(spec)
  end
end

--- The UTF-16 positions where the field "at the cursor" may be: the cursor's, and in Normal
--- mode, where the cursor stands on a character, also the place after that character (a
--- field that starts right after it, such as an empty one after `Phone: `).
local function cursor_positions(bufnr)
  local row, col = unpack(api.nvim_win_get_cursor(0))
  local line = edits.line(bufnr, row - 1)
  local out = { edits.position(bufnr, row - 1, col) }
  local mode = api.nvim_get_mode().mode:sub(1, 1)
  if mode ~= 'i' and mode ~= 'R' and col < #line then
    local after = col + 1
    while after < #line and bit.band(line:byte(after + 1), 0xC0) == 0x80 do
      after = after + 1
    end
    table.insert(out, edits.position(bufnr, row - 1, after))
  end
  return out
end

local function cursor_position(bufnr)
  return cursor_positions(bufnr)[1]
end

--- The undo state of `bufnr` (its changenr()).
local function changenr(bufnr)
  return api.nvim_buf_call(bufnr, vim.fn.changenr)
end

--- Applies an openField/setMask result: its edits when the buffer is still at `version`,
--- its cursor, and the field's state; `spec` is the mask it was opened with. An open that
--- changed the text is remembered, so that undoing it closes the field (see undone_opens).
--- Returns whether the edits were applied.
local function apply_field_result(bufnr, result, spec, opening)
  if type(result) ~= 'table' then
    return false
  end
  local b = fields.buf(bufnr)
  local applied = false
  if result.version == nil or result.version == edits.version(bufnr) then
    local before = changenr(bufnr)
    for v in pairs(edits.apply(bufnr, result.edits, false)) do
      b.own[v] = true
    end
    edits.set_cursor(bufnr, result.cursor)
    applied = true
    local after = changenr(bufnr)
    if opening and after ~= before and type(result.field) == 'string' then
      b.opens[result.field] = after
    end
  end
  if type(result.state) == 'table' then
    fields.update(bufnr, { result.state })
    if spec ~= nil then
      fields.remember(bufnr, result.state.field, spec)
    end
  end
  return applied
end

--- Closes the fields of `bufnr` whose opening an undo has just taken back, before the
--- daemon hears of the undo: the text is then as it was before the open, and stays so.
--- Called by maskd.sync before each didChange it sends.
local function undone_opens(bufnr)
  local b = fields.buf(bufnr)
  if next(b.opens) == nil then
    return
  end
  local now = changenr(bufnr)
  for id, nr in pairs(b.opens) do
    if now < nr then
      b.opens[id] = nil
      fields.remove(bufnr, id)
      -- Not through document(): it would flush the very change being sent.
      client.request(bufnr, 'maskd/closeField', { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, field = id }, function() end)
    end
  end
end
require('maskd.sync').before_send = undone_opens

--- Starts Insert mode in the empty field just opened, from Normal mode, so the person types
--- into it at once (at the end of a line the Normal-mode cursor cannot stand in it).
local function enter_field(bufnr, state)
  if type(state) ~= 'table' or state.text ~= '' or api.nvim_get_current_buf() ~= bufnr then
    return
  end
  if api.nvim_get_mode().mode ~= 'n' then
    return
  end
  local r = state.range.start
  local line = edits.line(bufnr, r.line)
  local col = edits.byte_col(line, r.character)
  api.nvim_win_set_cursor(0, { r.line + 1, col })
  vim.cmd(col >= #line and 'startinsert!' or 'startinsert')
end

--- Opens a field with mask `mask` (a preset name, bracket notation or a MaskSpec table).
--- opts: `range` (an LSP Range; default: the word under the cursor), `bufnr`, `field`,
--- `resolve` (false: a string is bracket notation, never a preset name), `silent` (no error
--- message), `force` (open even where text would be lost), `insert` (start Insert mode in
--- a field opened empty). `cb(err, result)` runs when the daemon has answered.
function M.open_field(mask, opts, cb)
  ensure_setup()
  opts = opts or {}
  local bufnr = opts.bufnr or api.nvim_get_current_buf()
  local range = opts.range
  -- Without a range the daemon chooses it around the cursor (formatted text such as
  -- `+1 (555) 123-4567` whole, a label left out).
  local at = not range and M.cursor_at() or nil
  local spec
  -- Preset names resolve once the daemon has said which presets it has.
  local params = with_spec(mask, opts, function(s)
    spec = s
    return {
      textDocument = document(bufnr),
      range = range,
      at = at,
      mask = s,
      field = opts.field,
      force = opts.force or nil,
    }
  end)
  client.request(bufnr, 'maskd/openField', params, function(err, result)
    if err then
      report(err, opts)
    elseif apply_field_result(bufnr, result, spec, true) and opts.insert then
      enter_field(bufnr, result.state)
    end
    finish(bufnr, cb, err, result)
  end)
end

-- Opening many fields ----------------------------------------------------------------

--- Opens `list` (each {range, mask, field?}) in `bufnr` with one maskd/openFields, or one
--- maskd/openField each from a daemon without it; `cb(results, version)` gets one entry
--- per field, in order: the openField result, or {error = {code, message}}.
local function open_many(bufnr, list, force, cb)
  local function params()
    local entries = {}
    for i, f in ipairs(list) do
      entries[i] = { range = f.range, mask = f.mask, field = f.field, force = force or nil }
    end
    return { textDocument = document(bufnr), fields = entries, force = force or nil }
  end
  client.request(bufnr, 'maskd/openFields', params, function(err, result)
    if not err and type(result) == 'table' and type(result.results) == 'table' then
      cb(result.results, result.version)
      return
    end
    if not (err and err.code == -32601) then
      local e = err or { code = -32603, message = 'maskd/openFields: no results' }
      cb(vim.tbl_map(function()
        return { error = e }
      end, list), nil)
      return
    end
    -- One at a time, each against the version the edits before it produced.
    local results, version = {}, nil
    local function one(i)
      if i > #list then
        cb(results, version)
        return
      end
      local f = list[i]
      local function p()
        return { textDocument = document(bufnr), range = f.range, mask = f.mask, field = f.field, force = force or nil }
      end
      client.request(bufnr, 'maskd/openField', p, function(e, r)
        results[i] = e and { error = e } or r
        if not e and type(r) == 'table' then
          apply_field_result(bufnr, r, f.mask, false)
          version = edits.version(bufnr)
          r.edits = {}
        end
        one(i + 1)
      end)
    end
    one(1)
  end)
end

--- Applies the results of open_many: every entry's edits in one change when the buffer is
--- still at `version` (the cursor moving with them as a caret would), else the lines of the
--- fields are formatted afresh. Records each state and mask. Returns the errors as
--- {row, message} pairs.
local function apply_many(bufnr, list, results, version, join)
  local b = fields.buf(bufnr)
  local all, states, errors = {}, {}, {}
  local current = api.nvim_get_current_buf() == bufnr
  local caret = current and cursor_position(bufnr)
  -- An entry over several lines has a result per line: the results are then not the
  -- entries', and an error says its line's range itself.
  local own = #results == #list
  for i, r in ipairs(results) do
    local entry = own and list[i] or { range = type(r) == 'table' and r.range or nil, mask = list[1].mask }
    if type(r) == 'table' and r.error then
      table.insert(errors, { entry.range and entry.range.start.line or -1, tostring(r.error.message) })
    elseif type(r) == 'table' then
      local list_edits = type(r.edits) == 'table' and r.edits or {}
      local mergeable = own and (not caret or entry.range.start.line ~= caret.line)
      if mergeable and #list_edits > 1 and type(r.state) == 'table' and type(r.state.text) == 'string' then
        -- A field's edits lie within the range it was opened over: one replacement of the
        -- range by the field's text is the same change, a third of the buffer updates
        -- (not on the caret's line, where the edits say how the caret moves).
        table.insert(all, { range = entry.range, newText = r.state.text })
      else
        vim.list_extend(all, list_edits)
      end
      if type(r.state) == 'table' then
        table.insert(states, r.state)
        fields.remember(bufnr, r.state.field, entry.mask)
      end
    end
  end
  if #all > 0 then
    if version == nil or version == edits.version(bufnr) then
      for v in pairs(edits.apply(bufnr, all, join)) do
        b.own[v] = true
      end
      if caret then
        edits.set_cursor(bufnr, edits.shifted(caret, all))
      end
    else
      M.reformat(bufnr, states)
    end
  end
  fields.update(bufnr, states)
  return errors
end

--- Brings the fields of `states` into form again (textDocument/rangeFormatting over their
--- lines): for opening edits that arrived after the person had typed on.
function M.reformat(bufnr, states)
  if #states == 0 then
    return
  end
  local stats = fields.buf(bufnr).stats
  stats.reformats = stats.reformats + 1
  local first, last = math.huge, -1
  for _, st in ipairs(states) do
    first = math.min(first, st.range.start.line)
    last = math.max(last, st.range['end'].line)
  end
  local version
  local function params()
    version = edits.version(bufnr)
    local line = edits.line(bufnr, last)
    return {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = { start = { line = first, character = 0 }, ['end'] = { line = last, character = edits.utf16_col(line, #line) } },
      options = { tabSize = vim.bo[bufnr].tabstop, insertSpaces = vim.bo[bufnr].expandtab },
    }
  end
  client.request(bufnr, 'textDocument/rangeFormatting', params, function(err, list)
    if err or type(list) ~= 'table' or #list == 0 or version ~= edits.version(bufnr) then
      return
    end
    local caret = api.nvim_get_current_buf() == bufnr and cursor_position(bufnr)
    for v in pairs(edits.apply(bufnr, list, true)) do
      fields.buf(bufnr).own[v] = true
    end
    if caret then
      edits.set_cursor(bufnr, edits.shifted(caret, list))
    end
  end)
end

--- A restarted daemon: every field of `bufnrs` opens again where its text is now, with its
--- mask, in one request per buffer, and what was typed meanwhile is formatted (forced: it
--- was a field, what does not fit is dropped as typing it would have been).
client.on_restart = function(bufnrs)
  for _, bufnr in ipairs(bufnrs) do
    if api.nvim_buf_is_loaded(bufnr) then
      local list = fields.reopening(bufnr)
      local b = fields.buf(bufnr)
      b.fields, b.opens = {}, {}
      open_many(bufnr, list, true, function(results, version)
        local errors = apply_many(bufnr, list, results, version, true)
        if #errors > 0 then
          notify(('%d of %d fields not opened again: %s'):format(#errors, #list, errors[1][2]), vim.log.levels.WARN)
        end
        b.stats.reopened = (b.stats.reopened or 0) + 1
        api.nvim_exec_autocmds('User', { pattern = 'MaskdReopened', modeline = false })
      end)
    end
  end
end

--- The ranges of :MaskdField over lines line1..line2 (1-based), as LSP Ranges: the Visual
--- selection when the range is the last selection (characterwise: one range from its start
--- to its end; blockwise: its columns on each line), else one range over the whole lines.
--- The daemon opens a field on each line of a range over several lines, over that line's
--- part without the blanks around it, and skips the lines with nothing else.
function M.line_ranges(bufnr, line1, line2)
  local s, e = vim.fn.getpos("'<"), vim.fn.getpos("'>")
  local mode = (s[2] == line1 and e[2] == line2) and vim.fn.visualmode() or ''
  --- Whole characters: the end moves past the rest of a multibyte one.
  local function char_end(line, last)
    while last < #line and bit.band(line:byte(last + 1), 0xC0) == 0x80 do
      last = last + 1
    end
    return last
  end
  local first_line, last_line = edits.line(bufnr, line1 - 1), edits.line(bufnr, line2 - 1)
  if mode == 'v' then
    return {
      {
        start = edits.position(bufnr, line1 - 1, math.min(s[3] - 1, #first_line)),
        ['end'] = edits.position(bufnr, line2 - 1, char_end(last_line, math.min(e[3], #last_line))),
      },
    }
  elseif mode ~= '\22' then
    return { { start = { line = line1 - 1, character = 0 }, ['end'] = edits.position(bufnr, line2 - 1, #last_line) } }
  end
  local out = {}
  for lnum = line1, line2 do
    local row = lnum - 1
    local line = edits.line(bufnr, row)
    local first = math.min(math.min(s[3], e[3]) - 1, #line)
    local last = char_end(line, math.min(math.max(s[3], e[3]), #line))
    table.insert(out, lsp_range(bufnr, row, first, last))
  end
  return out
end

--- Opens a field with `mask` over each of `ranges` in one request (a range over several
--- lines: one on each of its lines, as the daemon splits it); says in one line how many
--- opened and why the others did not. `cb(errors)` runs at the end.
function M.open_fields(mask, ranges, opts, cb)
  ensure_setup()
  opts = opts or {}
  local bufnr = opts.bufnr or api.nvim_get_current_buf()
  local list = {}
  for i, r in ipairs(ranges) do
    list[i] = { range = r }
  end
  -- Preset names resolve once the daemon has said which presets it has.
  client.when_ready(bufnr, function(failed)
    if failed then
      finish(bufnr, cb, 'maskd is not running', nil)
      return
    end
    local spec, why = spec_of(mask, opts)
    if spec == nil then
      report(why, opts)
      finish(bufnr, cb, why, nil)
      return
    end
    for _, f in ipairs(list) do
      f.mask = spec
    end
    open_many(bufnr, list, opts.force, function(results, version)
      local errors = apply_many(bufnr, list, results, version, false)
      if #errors > 0 then
        notify(('%d of %d fields opened; line %d: %s'):format(#results - #errors, #results, errors[1][1] + 1, errors[1][2]),
          vim.log.levels.WARN)
      end
      finish(bufnr, cb, nil, errors)
    end)
  end)
end

--- :MaskdField[!] {preset|mask}: over the Visual selection when given a range (over several
--- lines: a field on each line), else the word under the cursor; with !, even where the
--- text would not fit the mask.
function M.field_command(o)
  local range
  if o.range and o.range > 0 and o.line1 ~= o.line2 then
    M.open_fields(o.args, M.line_ranges(0, o.line1, o.line2), { force = o.bang })
    return
  end
  if o.range and o.range > 0 then
    local row, s, e = M.visual_range(o.line1, o.line2)
    if not row then
      notify(s, vim.log.levels.ERROR)
      return
    end
    range = lsp_range(0, row, s, e)
  end
  M.open_field(o.args, { range = range, force = o.bang, insert = M.config.insert_on_open })
end

--- Calls `fn(state)` with the daemon's FieldState at the cursor (maskd/formatHints), or
--- reports that there is none and calls `cb`.
local function with_field(bufnr, cb, fn, opts)
  local positions = cursor_positions(bufnr)
  local function ask(i)
    local function params()
      return { textDocument = document(bufnr), position = positions[i] }
    end
    client.request(bufnr, 'maskd/formatHints', params, function(err, state)
      if err then
        report(err, opts)
        finish(bufnr, cb, err, nil)
      elseif type(state) == 'table' then
        fn(state)
      elseif positions[i + 1] then
        ask(i + 1)
      else
        if not (opts and opts.silent) then
          notify('no field under the cursor', vim.log.levels.WARN)
        end
        finish(bufnr, cb, nil, nil)
      end
    end)
  end
  ask(1)
end

--- Changes the mask of the field under the cursor; its entered characters re-flow and the
--- cursor keeps its count of entered characters to its left.
--- opts: `resolve`, `silent`, `force` as for open_field(). `cb(err, result)` runs at the end.
function M.set_mask(mask, opts, cb)
  ensure_setup()
  opts = opts or {}
  local bufnr = api.nvim_get_current_buf()
  with_field(bufnr, cb, function(state)
    local spec
    local params = with_spec(mask, opts, function(s)
      spec = s
      local position = cursor_position(bufnr)
      return { textDocument = document(bufnr), field = state.field, mask = s, position = position, force = opts.force or nil }
    end)
    client.request(bufnr, 'maskd/setMask', params, function(err, result)
      if err then
        report(err, opts)
      else
        apply_field_result(bufnr, result, spec, false)
      end
      finish(bufnr, cb, err, result)
    end)
  end, opts)
end

--- Closes the field under the cursor; its text stays as it is, but for the zeros a
--- padFraction number gets: the daemon sends them before its reply, as a didFormat (applied
--- by the handler below like any other), the cursor carried through them.
function M.close(cb)
  ensure_setup()
  local bufnr = api.nvim_get_current_buf()
  with_field(bufnr, cb, function(state)
    local function params()
      return { textDocument = document(bufnr), field = state.field, position = cursor_position(bufnr) }
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

--- Echoes the state of the field under the cursor on one line (cut to fit, so there is no
--- hit-enter prompt): its value and state, its problems, the mask, what is still to fill.
function M.info(cb)
  ensure_setup()
  local bufnr = api.nvim_get_current_buf()
  with_field(bufnr, cb, function(state)
    fields.update(bufnr, { state })
    local chunks = {
      { 'maskd ', 'Title' },
      { fields.describe(state) },
    }
    -- The daemon's diagnostics are off for plugin buffers: an invalid field's problems are
    -- in describe(), an incomplete one's is what is still to fill.
    if type(state.placeholder) == 'string' and state.placeholder ~= '' then
      table.insert(chunks, { '  to fill ' .. state.placeholder, 'Comment' })
    end
    table.insert(chunks, { '  mask ' .. tostring(state.mask), 'Comment' })
    api.nvim_echo(fields.fit(chunks, vim.v.echospace), true, {})
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

--- Handles `maskd/didFormat`: forgets the fields it names as closed; drops the rest when the
--- buffer has moved past its version, when it answers the plugin's own edits or an undo or a
--- redo; otherwise applies its edits joined to the person's undo step, places the cursor
--- (see fields.holds) and records the fields. Sends nothing.
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
  -- The daemon closed these fields when the change reached it (their line deleted, replaced or
  -- joined away): they are forgotten whatever becomes of the rest of this notification.
  fields.close(bufnr, params.closed)
  -- No cursor: field rules opened the fields it carries (at open, or after the rules were read
  -- again), with no change of the person's behind it. That is no answer to a change, so it is
  -- applied even at a version of the plugin's own edits. Its formatting is an undo step of its
  -- own, as an open is, and undoing it closes those fields (see undone_opens).
  local opening = params.cursor == nil or params.cursor == vim.NIL
  if b.own[version] and not opening then
    b.stats.echo = b.stats.echo + 1
    return
  end
  if version ~= edits.version(bufnr) then
    b.stats.stale = b.stats.stale + 1
    return
  end
  if not opening and require('maskd.sync').undone(bufnr, version) then
    -- An undo or a redo gives back text the person had: it is kept as it is, and the cursor
    -- stays where the undo put it. Applying an edit now would start a new branch of the
    -- undo tree and lose the redo. The daemon's copy is still the buffer's (its edits enter
    -- it only with their echo); the fields' states are kept when nothing was to change.
    b.stats.undo = b.stats.undo + 1
    if type(params.edits) ~= 'table' or #params.edits == 0 then
      fields.update(bufnr, params.fields)
    end
    return
  end
  for v in pairs(b.own) do
    if v < version then
      b.own[v] = nil
    end
  end
  local list = type(params.edits) == 'table' and params.edits or {}
  local before = changenr(bufnr)
  for v in pairs(edits.apply(bufnr, list, not opening)) do
    b.own[v] = true
  end
  local after = changenr(bufnr)
  if opening and after ~= before and type(params.fields) == 'table' then
    for _, s in ipairs(params.fields) do
      if type(s) == 'table' and type(s.field) == 'string' then
        b.opens[s.field] = after
      end
    end
  end
  if #list > 0 or fields.holds(params.fields, params.cursor) then
    edits.set_cursor(bufnr, params.cursor)
  end
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
