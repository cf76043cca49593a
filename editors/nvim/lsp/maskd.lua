-- maskd for Neovim 0.11's built-in client, without the plugin's commands: with this folder on
-- 'runtimepath' (the plugin installed), `vim.lsp.enable('maskd')` starts maskd in the
-- plain-client mode for every file type; `.maskd.json` rules then open fields by themselves,
-- and code actions open and close them. Override any field with vim.lsp.config('maskd', {...}).
-- Do not enable it beside require('maskd').setup(): the plugin runs its own client.
return {
  cmd = { 'maskd', '--stdio' },
  -- The project's root is the folder of the nearest .maskd.json (its rules apply below it).
  root_markers = { '.maskd.json' },
  -- Edits come as workspace/applyEdit, which any client applies (no maskd/didFormat handler).
  init_options = { edits = 'applyEdit' },
  capabilities = {
    -- Neovim applies versioned edits but does not say so: saying it lets it refuse an edit
    -- made for a text it has since changed, rather than apply it to the wrong text.
    workspace = { workspaceEdit = { documentChanges = true } },
  },
  -- Each change is sent at once (not after 150 ms): the daemon holds its formatting until you
  -- pause, and learns of every key before it sends it.
  flags = { debounce_text_changes = 0 },
}
