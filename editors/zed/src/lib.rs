// The maskd extension for Zed: tells Zed how to start the daemon and asks for the plain-client
// mode, in which maskd delivers its formatting through `workspace/applyEdit` (Zed has no handler
// for `maskd/didFormat`).
use zed_extension_api::{self as zed, serde_json, LanguageServerId, Result};

struct Maskd;

impl zed::Extension for Maskd {
    fn new() -> Self {
        Maskd
    }

    /// `maskd --stdio`, found on the worktree's PATH; the user's `lsp.maskd.binary` setting, when
    /// given, takes precedence in Zed itself.
    fn language_server_command(&mut self, _id: &LanguageServerId, worktree: &zed::Worktree) -> Result<zed::Command> {
        let command = worktree
            .which("maskd")
            .ok_or_else(|| "maskd is not on PATH: build it (swift build -c release) and put .build/release on PATH".to_string())?;
        Ok(zed::Command { command, args: vec!["--stdio".into()], env: worktree.shell_env() })
    }

    fn language_server_initialization_options(
        &mut self,
        _id: &LanguageServerId,
        _worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(Some(serde_json::json!({ "edits": "applyEdit" })))
    }
}

zed::register_extension!(Maskd);
