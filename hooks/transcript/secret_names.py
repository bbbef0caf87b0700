"""Keys named like secrets, and values that are literals rather than code.

A JSON, YAML or XML value, a table's column or an assignment is a secret by the name of
its key (`client_secret`, `PGPASSWORD`, `api_key`, not `sort_key`) and by its value (a
literal, not a variable, a template, a type or a call). The secret-field patterns of
transcript.secret_patterns find the colon, tab or element, and read the key's name back with
the functions here. Plain Python: nothing here imports MkDocs or Markdown.
"""

from __future__ import annotations

import re

# The words of a name: `clientSecret`, `client_secret`, `CLIENT-SECRET` and `APIKey`
# are each two words.
_NAME_WORDS = re.compile(r"[A-Z]{2,}(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_NAME_CHARS = re.compile(r"[A-Za-z0-9_$.-]*\Z")
# A key's last word that names a secret of any value, of a token-like value only, and
# the words before `key` that make it secret (`api_key`, not `sort_key`).
_SECRET_NAMES = frozenset({"password", "passwd", "passphrase", "secret", "apikey", "passwords", "secrets"})
# A name run together in capitals (`PGPASSWORD`, `DBPASSWORD`) is one word, ending so.
_SECRET_ENDINGS = ("password", "passwd", "secret")
# Words after a secret's name that name it again: `password_confirmation`, `passwordRepeat`.
_AFTER_SECRET_WORDS = frozenset({"confirmation", "confirm", "confirmed", "again", "repeat", "repeated", "retype",
                                 "verify", "verification", "old", "new", "current"})
_TOKEN_NAMES = frozenset({"token", "auth"})
_SECRET_KEY_WORDS = frozenset({"api", "access", "secret", "private", "signing", "encryption", "master", "account",
                               "auth", "client"})
# Tokens that are no secret: a page's, a cancellation's.
_PUBLIC_TOKEN_WORDS = frozenset({"page", "next", "continuation", "pagination", "cancellation", "sync", "resume",
                                 "max", "min", "num", "total", "count", "public"})
# Values that stand for a secret rather than being one: variables and templates, masks,
# empty values, and the words of documentation.
_STAND_IN = re.compile(r"[$%<{]|\*+\Z|[xX]+\Z|\.\.\.|…|\[REDACTED|.*(?:\$\{|\{\{)", re.S)
_STAND_IN_WORDS = frozenset({"", "null", "none", "nil", "undefined", "true", "false", "~", "string", "str",
                             "password", "secret", "token", "changeme", "example", "redacted", "hidden", "required",
                             "optional", "your-password", "your_password", "your-token", "your_token", "your-api-key",
                             "your_api_key"})
# What makes an unquoted value code rather than a YAML literal: a type, a dotted name or
# a call, a trailing `,` or `;`, a CamelCase type name (of letters).
_CODE_VALUE = re.compile(
    r"(?:str|string|bytes|int|float|bool|boolean|number|any|Any|unknown|object|Optional|Union|SecretStr|"
    r"SecretBytes|list|dict|List|Dict)\b"
    r"|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\Z|[A-Za-z_$][\w$.]*[(\[]|.*[,;({]\Z"
    r"|(?:[A-Z][a-z]+){2,}\Z",  # letters alone: `Passw0rdSecure1`, `MyS3cret` are no type's name
    re.S,
)
# A token: a digit and 8 characters, or both cases and 16 (not a metric's dotted name).
_TOKEN_LIKE = re.compile(r"(?=\S*[0-9])\S{8,}|(?=\S*[a-z])(?=\S*[A-Z])\S{16,}")
# A type in a schema (`"passphrase": "string?"`), not a value.
_TYPE_NAME = re.compile(r"(?i:string|str|binary|bytes|number|integer|int|float|boolean|bool|any|object)(?:\?|\[\])?\Z")
_ALNUM = re.compile(r"[A-Za-z0-9]")


def secret_name(name: str) -> str | None:
    """How a key named `name` is treated: "secret" if its value is a secret whatever it
    looks like (`password`, `client_secret`, `api_key`), "token" if only a token-like
    value is (`access_token`, `auth`: a lexer's `"token": "IDENT"` is no secret), or None."""
    words = [word.lower() for word in _NAME_WORDS.findall(name)]
    if not words or name.startswith("[REDACTED"):  # a key that was a secret
        return None
    while len(words) > 1 and (words[-1].isdigit() or words[-1] in _AFTER_SECRET_WORDS):
        words.pop()  # `password2`, `password_confirmation` hold the password again
    if words[-2:] == ["pass", "word"]:  # `PassWord`
        words[-2:] = ["password"]
    last, before = words[-1], words[-2] if len(words) > 1 else ""
    if last in _SECRET_NAMES or last.endswith(_SECRET_ENDINGS) or (last == "key" and before in _SECRET_KEY_WORDS) \
            or (last == "pwd" and before == "mysql"):
        return "secret"
    if last in _TOKEN_NAMES and before not in _PUBLIC_TOKEN_WORDS:
        return "token"
    return None


def secret_literal(value: str, name_kind: str, plain: bool = False) -> bool:
    """Whether `value`, the value of a key whose name is of `name_kind` (see
    secret_name), is a literal secret rather than a variable, a template, a mask, a
    placeholder, a type, or shorter than 4 characters. A `plain` value, unquoted in
    YAML, must also not read as code (`str`, `config.password`, `get()`), nor be a word
    of fewer than 16 letters, which prose and type names are made of."""
    value = value.strip()
    if value.lower() in _STAND_IN_WORDS or _STAND_IN.match(value) or _TYPE_NAME.match(value):
        return False
    if len(value) < 4 or _ALNUM.search(value) is None:
        return False  # too short to keep anything, or an emoji's name for 🤫
    if plain and (_CODE_VALUE.match(value) or any(c.isspace() for c in value) or
                  (value.isalpha() and len(value) < 16)):
        return False
    return name_kind == "secret" or _TOKEN_LIKE.fullmatch(value) is not None


# How the names of secret-field's keys end, whatever their case: `key` only after `_`,
# `-` or the last letter of one of _SECRET_KEY_WORDS (`apiKey`), as `"key":` and
# `"sort_key":` fill JSON.
_SECRET_NAME_ENDS = ("password", "passwd", "passphrase", "secret", "token", "auth",
                     *(f"{c}key" for c in sorted({"_", "-", *(word[-1] for word in _SECRET_KEY_WORDS)})))


def after_secret_name(case_insensitive: bool, separator: str = ":") -> str:
    """A regular expression for a colon (or another `separator`) right after a name
    ending as _SECRET_NAME_ENDS do, and its closing quote if any: plain, escaped once
    (`\\"`) or twice (`\\\\\\"`), as JSON inside a JSON string inside text is. After a
    tab, the name alone."""
    # A look-behind must be of one width: the ends are grouped by length. A first look
    # at the character before the colon turns most colons away at once.
    widths: dict[int, list[str]] = {}
    for end in _SECRET_NAME_ENDS:
        widths.setdefault(len(end), []).append(re.escape(end))
    closes, spaces = (("", '"', "'", '\\"', '\\\\\\"'), ("", " ")) if separator == ":" else (("",), ("",))
    sep = re.escape(separator)
    behind = "|".join(f"(?<=(?:{'|'.join(ends)}){re.escape(close + space)}{sep})" for ends in widths.values()
                      for close in closes for space in spaces)
    last = "".join(sorted({end[-1] for end in _SECRET_NAME_ENDS} | {close[-1:] for close in closes} | set(spaces)))
    pattern = f"{sep}(?<=[{re.escape(last)}]{sep})(?:{behind})"
    return f"(?i:{pattern})" if case_insensitive else pattern


# A look-behind for the end of a name ending as _SECRET_NAME_ENDS do, any case.
SECRET_NAME_END = "(?i:" + "|".join(f"(?<={re.escape(end)})" for end in _SECRET_NAME_ENDS) + ")"
_KEY_END = re.compile(r"(?P<close>(?:\\(?:\\\\)?)?[\"']?) ?\Z")


def _key_before(match: re.Match[str]) -> tuple[str | None, str, str]:
    """The key whose name ends right before a match (at its colon or tab): how its name
    is treated (see secret_name), its closing quote if any, and the text before the name
    on its line."""
    before = match.string[max(0, match.start() - 120) : match.start()]
    end = _KEY_END.search(before)
    assert end is not None  # it matches the empty string
    name_end = before[: end.start()]
    name = _NAME_CHARS.search(name_end)
    assert name is not None
    return secret_name(name.group(0)), end.group("close"), name_end[: name.start()].rsplit("\n", 1)[-1]


# A name in code (`user_password`, `$pw`), which a value without quotes in braces is more
# often than a literal.
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z_$]*\Z")


def secret_field(match: re.Match[str]) -> bool:
    """Whether a match of the secret-field pattern (from the colon on) follows a key
    named like a secret and holds a literal value: the name is read back from the colon
    (`client_secret`, not `oauth`). A value without quotes must follow an unquoted key
    that starts its line (`- ` before it too, as a YAML list's item), or one in a YAML
    flow mapping, after `{` or `,` (`{user: ann, password: …}`); there, it must not be
    a name in code either, as an object literal's `{password: userPassword}` is."""
    name_kind, close, line_start = _key_before(match)
    if name_kind is None:
        return False
    plain, flow = match.group("plain"), match.group("flow")
    if plain is None and flow is None:
        value = match.group("escaped") or match.group("double") or match.group("single") or ""
        return secret_literal(value, name_kind)
    if close:
        if close not in "\"'" or not line_start.endswith(close):
            return False
        line_start = line_start[:-1]  # a quoted YAML key (`"password": …`) on a line of its own
        if flow is not None:
            return False
    if re.fullmatch(r"[ \t]*(?:-[ \t]+)?", line_start) is not None:
        # On a line of its own, a value before `}` is one (`password: abc}`); one before
        # `,` is code, a line of an object literal (`password: user_password,`).
        return (flow is None or not match.string.startswith(",", match.end())) \
            and secret_literal(plain or flow, name_kind, plain=True)
    return (flow is not None and re.search(r"[{,][ \t]*\Z", line_start) is not None
            and _IDENTIFIER.match(flow) is None and secret_literal(flow, name_kind, plain=True))


def tab_field(match: re.Match[str]) -> bool:
    """Whether a match of the secret-field pattern for tables (from the tab on) ends a
    line of two columns, a name like a secret's and a literal value, as `mysql -e` and
    other tools print a table."""
    name_kind, close, line_start = _key_before(match)
    return (name_kind is not None and not close and re.fullmatch(r"[ \t]*", line_start) is not None
            and secret_literal(match.group("tab"), name_kind, plain=True))


def xml_field(match: re.Match[str]) -> bool:
    """Whether a match of a secret-field pattern for XML is the literal value of an
    element or a `key`/`name` attribute named like a secret: `<password>…</password>`,
    `<add key="DbPassword" value="…"/>`, `<property name="password" value="…"/>`."""
    groups = match.groupdict()
    name = groups.get("tag") or groups.get("attr_name") or ""
    name_kind = secret_name(name.rsplit(":", 1)[-1])
    value = groups.get("cdata") or groups.get("element") or groups.get("attr_value") or ""
    return name_kind is not None and secret_literal(value, name_kind)
