"""qlint's own YAML bank format: the loader, unchanged, behind the reader interface."""
from __future__ import annotations

from qlint.loader import FileResult, Limits, decode, load_text


class YamlReader:
    name = "yaml"
    suffixes = (".yaml", ".yml")

    def sniff(self, data: bytes, path: str) -> bool:
        return path.lower().endswith(self.suffixes)

    def read(self, data: bytes, path: str, limits: Limits) -> FileResult:
        text, problems = decode(data, path)
        result = load_text(text, path, limits) if text is not None else FileResult(path)
        result.findings[:0] = problems
        return result


READER = YamlReader()
