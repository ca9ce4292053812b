"""The language helpers: word lists validated once, the two stemmers and stop-word lists kept apart on purpose,
the pattern-safety check, and the package's place at the bottom of the import graph."""
import ast
from pathlib import Path
from types import MappingProxyType

import pytest

from qlint.language import wordlists
from qlint.language.patterns import UnsafePattern, check_pattern_safety
from qlint.language.stems import CUE_STOPWORDS, KEY_STOPWORDS, content_stems, cue_stem, key_stem
from qlint.language.terms import TermList

LANGUAGE = Path(wordlists.__file__).parent


def test_every_shipped_word_list_loads_read_only_and_once():
    for path in sorted(wordlists.WORD_LISTS.glob("*.yaml")):
        lists = wordlists.word_lists(path.stem)
        assert lists and lists is wordlists.word_lists(path.stem)   # one cached copy for every rule
        with pytest.raises(TypeError):
            lists["extra"] = ()  # type: ignore[index]
        for entry in lists.values():
            assert isinstance(entry, (str, tuple, MappingProxyType))   # lists frozen to tuples, tables read-only


@pytest.mark.parametrize("text, message", [
    ("- just\n- a list\n", "must be a mapping"),
    ("terms: [always, 3]\n", "'terms' must be"),
    ("weak: [\"no\", no]\n", "'weak' must be"),                 # YAML reads a bare no as false
    ("scale: {thousand: 1000, lots: many}\n", "'scale' must be"),
])
def test_a_malformed_word_list_is_refused_naming_file_and_entry(tmp_path, monkeypatch, text, message):
    (tmp_path / "broken.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(wordlists, "WORD_LISTS", tmp_path)
    wordlists.word_lists.cache_clear()
    try:
        with pytest.raises(ValueError, match=message) as caught:
            wordlists.word_lists("broken")
        assert "broken.yaml" in str(caught.value)
    finally:
        wordlists.word_lists.cache_clear()


def test_the_two_stemmers_differ_where_their_docstring_says():
    assert key_stem("layers") == "layer" and cue_stem("layers") == "lay"
    assert key_stem("relational") == "relat" and cue_stem("relational") == "rel"
    assert key_stem("studies") == "study" and cue_stem("studies") == "stud"
    assert cue_stem("teacher's") == "teach" and key_stem("teacher's") == "teacher'"
    assert key_stem("heating") == cue_stem("heating") == "heat"


def test_the_cue_stop_words_also_drop_vague_words_the_key_keeps():
    assert {"thing", "people", "use"} <= CUE_STOPWORDS
    assert not {"thing", "people", "use"} & KEY_STOPWORDS
    assert {"question", "options"} <= KEY_STOPWORDS - CUE_STOPWORDS


def test_content_stems_depend_on_the_minimum_length_asked_for():
    text = "The cat sat on warm mats"
    assert content_stems(text, 3) == {"cat", "sat", "warm", "mat"}
    assert content_stems(text, 4) == {"warm", "mat"}
    assert content_stems(text, 3) == {"cat", "sat", "warm", "mat"}   # each length keeps its own memo


@pytest.mark.parametrize("pattern", [r"(a+)+$", r"(x)\1", r"([a-z"])
def test_unsafe_or_invalid_patterns_are_refused(pattern):
    with pytest.raises(UnsafePattern):
        check_pattern_safety(pattern)


def test_a_term_list_refuses_an_unsafe_exception_idiom():
    with pytest.raises(UnsafePattern, match="nests unbounded repeats"):
        TermList({"terms": ["always"], "exceptions": [r"(\w+\s*)*always"]})


def test_a_term_list_matches_like_before_on_a_subset_of_terms():
    terms = TermList({"terms": ["always", "never", "all the time"], "weak": ["must"],
                      "exceptions": [r"\bnever\s+mind\b"]})
    assert terms.hits("It is always so, never mind; it happens all   the time", include_weak=False) == [
        "always", "all the time"]
    assert terms.located("You must", include_weak=True) == [("must", (4, 8))]
    assert terms.located("You must", include_weak=False) == []


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_language_helpers_import_nothing_of_qlint_but_themselves():
    for path in LANGUAGE.glob("*.py"):
        outside = {m for m in _imports(path) if m.startswith("qlint") and not m.startswith("qlint.language")}
        assert not outside, f"{path.name} imports {outside}"


def _of_qlint(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(alias.name.split(".")[0] == "qlint" for alias in node.names)
    return isinstance(node, ast.ImportFrom) and (node.level > 0 or (node.module or "").split(".")[0] == "qlint")


def test_no_language_module_imports_qlint_or_an_unexplained_library_inside_a_function():
    """An import of qlint inside a function would hide an arrow out of the bottom layer; a heavy library loaded on
    first use (numpy for the binomial tail, which only the bank statistics need) says so on its line."""
    for path in LANGUAGE.glob("*.py"):
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = [n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]
                assert not [n for n in inner if _of_qlint(n)], f"{path.name}:{node.name} imports qlint inside a function"
                for n in inner:
                    assert "#" in lines[n.lineno - 1], f"{path.name}:{n.lineno} imports inside a function without saying why"
