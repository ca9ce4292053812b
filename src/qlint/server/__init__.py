"""The editor server (LSP): ``lsp`` answers the editor, ``runs`` decides where a buffer is checked and runs each
check in a worker process of its own. Import the module you need; this package imports nothing (pygls is optional)."""
