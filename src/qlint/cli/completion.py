"""``qlint completion bash|zsh|fish``: a shell completion script, written from the parser itself (ruff's
``generate-shell-completion``): subcommands, each one's options, the values of options that take a fixed set
(formats, severities, colour), rule names and codes after ``--select``/``--ignore`` and ``qlint rule``, and file
names everywhere else. Nothing runs qlint while completing: the script is static text.
"""
from __future__ import annotations

import argparse
import re
import shlex
from collections.abc import Sequence

SHELLS = ("bash", "zsh", "fish")
_RULE_OPTIONS = ("--select", "--extend-select", "--ignore")
_SAFE_WORD = re.compile(r"[A-Za-z0-9_.:+-]+")   # what goes into a script unquoted: option names, choices, rules


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _help(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help or "" for a in action._choices_actions}
    return {}


def _words(words: Sequence[str]) -> str:
    return " ".join(w for w in words if _SAFE_WORD.fullmatch(w))


RULES = object()   # an option whose value is a rule: the script's one list of rule names and codes


def _values(action: argparse.Action, rules: Sequence[str], formats: Sequence[str]):
    """The words an option's value is completed from: a list, RULES, [] for a number (nothing to offer), or None
    when it takes a file name (or any text)."""
    if any(o in _RULE_OPTIONS for o in action.option_strings):
        return RULES
    if action.dest == "jobs" or action.type in (int, float):
        return []
    if action.dest == "format" and action.choices is None:
        return list(formats)
    return [str(c) for c in action.choices] if action.choices else None


def bash(parser: argparse.ArgumentParser, rules: Sequence[str], formats: Sequence[str]) -> str:
    commands = _subcommands(parser)
    lines = ["# bash completion for qlint (qlint completion bash); also read by zsh through bashcompinit",
             f'_qlint_rules="{_words(rules)}"',
             "_qlint_list() {",
             "    # a comma-separated list (--select a,b): complete the name after the last comma, keeping those before",
             '    local head="" tail="$cur"',
             '    if [[ "$cur" == *,* ]]; then head="${cur%,*},"; tail="${cur##*,}"; fi',
             '    COMPREPLY=($(compgen -P "$head" -W "$_qlint_rules" -- "$tail"))',
             "}",
             "_qlint() {",
             "    # zsh runs this through bashcompinit: its arrays count from 1 unless ksh_arrays is set for the function",
             '    [[ -n "${ZSH_VERSION-}" ]] && setopt local_options ksh_arrays',
             '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="" word',
             '    for word in "${COMP_WORDS[@]:1:$((COMP_CWORD-1))}"; do',
             '        case "$word" in -*) ;; *) cmd="$word"; break ;; esac',
             "    done",
             '    if [[ -z "$cmd" ]]; then',
             f'        COMPREPLY=($(compgen -W "{_words([*commands, "--help", "--version"])}" -- "$cur"))',
             "        return",
             "    fi",
             '    case "$cmd" in']
    for name, sub in commands.items():
        lines.append(f"    {name})")
        lines.append('        case "$prev" in')
        for action in sub._actions:
            if not action.option_strings or action.nargs == 0:
                continue
            values = _values(action, rules, formats)
            pattern = "|".join(action.option_strings)
            if values is None:
                lines.append(f"            {pattern}) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;")
            elif values is RULES:
                lines.append(f"            {pattern}) _qlint_list; return ;;")
            else:
                lines.append(f'            {pattern}) COMPREPLY=($(compgen -W "{_words(values)}" -- "$cur")); return ;;')
        lines.append("        esac")
        options = [o for action in sub._actions for o in action.option_strings]
        lines.append('        if [[ "$cur" == -* ]]; then')
        lines.append(f'            COMPREPLY=($(compgen -W "{_words(options)}" -- "$cur"))')
        if name == "rule":
            lines += ["        else", '            COMPREPLY=($(compgen -W "$_qlint_rules" -- "$cur"))']
        elif name == "completion":
            lines += ["        else", f'            COMPREPLY=($(compgen -W "{_words(SHELLS)}" -- "$cur"))']
        lines.append("        fi")
        lines.append("        ;;")
    lines += ["    esac", "}", "complete -o default -o bashdefault -F _qlint qlint", ""]
    return "\n".join(lines)


def zsh(parser: argparse.ArgumentParser, rules: Sequence[str], formats: Sequence[str]) -> str:
    return ("#compdef qlint\n# zsh completion for qlint (qlint completion zsh): the bash completion, through zsh's "
            "bashcompinit\n(( $+functions[compdef] )) || { autoload -U +X compinit && compinit }\n"
            "autoload -U +X bashcompinit && bashcompinit\n" + bash(parser, rules, formats))


def fish(parser: argparse.ArgumentParser, rules: Sequence[str], formats: Sequence[str]) -> str:
    commands = _subcommands(parser)
    helps = _help(parser)
    lines = ["# fish completion for qlint (qlint completion fish)",
             "# rule names after --select, --extend-select and --ignore, also after a comma (--select a,b)",
             "function __qlint_rule_list",
             "    set -l head (string match -r -- '^.*,' (commandline -ct))",
             f"    for rule in {_words(rules)}",
             '        echo "$head$rule"',
             "    end",
             "end",
             "complete -c qlint -f -n __fish_use_subcommand -s h -l help -d 'show help'"]
    for name, sub in commands.items():
        lines.append(f"complete -c qlint -f -n __fish_use_subcommand -a {name} -d {shlex.quote(helps.get(name, ''))}")
        seen = f"'__fish_seen_subcommand_from {name}'"
        for action in sub._actions:
            if not action.option_strings:
                continue
            flags = " ".join(f"-l {o[2:]}" if o.startswith("--") else f"-s {o[1:]}" for o in action.option_strings)
            described = f" -d {shlex.quote(_short(action.help))}" if action.help else ""
            if action.nargs == 0:
                lines.append(f"complete -c qlint -n {seen} {flags}{described}")
                continue
            values = _values(action, rules, formats)
            given = (" -r -F" if values is None else " -x" if values == [] else " -x -a '(__qlint_rule_list)'"
                     if values is RULES else f" -x -a {shlex.quote(_words(values))}")
            lines.append(f"complete -c qlint -n {seen} {flags}{given}{described}")
        if name == "rule":
            lines.append(f"complete -c qlint -n {seen} -f -a {shlex.quote(_words(rules))}")
        elif name == "completion":
            lines.append(f"complete -c qlint -n {seen} -f -a {shlex.quote(_words(SHELLS))}")
    return "\n".join(lines) + "\n"


def _short(text: str, width: int = 60) -> str:
    """A help text cut to a line's description, at a word."""
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + "..."


def script(shell: str, parser: argparse.ArgumentParser, rules: Sequence[str], formats: Sequence[str]) -> str:
    return {"bash": bash, "zsh": zsh, "fish": fish}[shell](parser, rules, formats)
