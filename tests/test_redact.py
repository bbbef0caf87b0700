"""Secret redaction: every kind, the text kept around a secret, the allow-list and
extra patterns. Secrets are obviously fake and built at run time, so that no
secret-looking literal sits in the repository."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from msgref.redact import KINDS, NestingError, Redactor

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "data" / "transcripts"


def _jwt() -> str:
    def part(value: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")

    return part({"alg": "HS256", "typ": "JWT"}) + "." + part({"sub": "fake-user", "iat": 1}) + ".fakesignature0"


def _private_key() -> str:
    label = "RSA " + "PRIVATE KEY"
    body = "\n".join(["MIIEfake" + "A" * 56] * 3)
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"


def planted_secrets() -> dict[str, tuple[str, str]]:
    """kind -> (a line holding the secret as it would appear in a log, the secret)."""
    anthropic = "sk-ant-" + "api03-" + "a" * 40
    openai = "sk-proj-" + "b" * 40
    huggingface = "hf_" + "c" * 34
    github = "ghp_" + "d" * 36
    aws = "AKIA" + "E" * 16
    slack = "xoxb-" + "1" * 12 + "-" + "f" * 24
    google = "AIza" + "g" * 35
    jwt = _jwt()
    private_key = _private_key()
    bearer = "h" * 12 + "9" * 12
    url_password = "p" * 10 + "4"
    assignment = "i" * 16 + "7"
    return {
        "anthropic-key": (f"export ANTHROPIC_API_KEY={anthropic}", anthropic),
        "openai-key": (f"client = OpenAI(api_key='{openai}')", openai),
        "huggingface-token": (f"huggingface-cli login --token {huggingface}", huggingface),
        "github-token": (f"git push https://{github}@github.com/org/repo", github),
        "aws-access-key": (f"aws_access_key_id = {aws}", aws),
        "slack-token": (f"SLACK_BOT={slack} ./notify.sh", slack),
        "google-api-key": (f"maps.js?key={google}&v=3", google),
        "jwt": (f"session cookie: {jwt}; path=/", jwt),
        "private-key": (f"cat id_rsa\n{private_key}\n", private_key),
        "bearer-token": (f'curl -H "Authorization: Bearer {bearer}" https://api.example.org', bearer),
        "url-password": (f"DATABASE_URL=postgres://admin:{url_password}@db.example.org:5432/app", url_password),
        "secret-assignment": (f"DEPLOY_SECRET={assignment} make deploy", assignment),
    }


def test_every_kind_has_a_planted_secret():
    assert set(planted_secrets()) == set(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_is_replaced_by_its_marker(kind):
    text, secret = planted_secrets()[kind]
    redacted, kinds = Redactor().redact_text(text)
    assert secret not in redacted
    assert f"[REDACTED: {kind}]" in redacted
    assert kinds.count(kind) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("API_KEY=abc123 and more", "API_KEY=[REDACTED: secret-assignment] and more"),
        ('GITHUB_TOKEN="abc123"', 'GITHUB_TOKEN="[REDACTED: secret-assignment]"'),
        ("password = 'hunter22'", "password = '[REDACTED: secret-assignment]'"),
        ("run --api-key=abc123 now", "run --api-key=[REDACTED: secret-assignment] now"),
        ("https://user:pw@host/path", "https://user:[REDACTED: url-password]@host/path"),
        ("Authorization: Bearer xyz", "Authorization: Bearer [REDACTED: bearer-token]"),
        ("token: Bearer abc.def-123 end", "token: Bearer [REDACTED: bearer-token] end"),
    ],
)
def test_text_around_a_secret_is_kept(text, expected):
    assert Redactor().redact_text(text)[0] == expected


def test_a_key_inside_an_assignment_is_reported_as_the_key():
    key = "sk-ant-" + "k" * 30
    assert Redactor().redact_text(f"ANTHROPIC_API_KEY={key}") == (
        "ANTHROPIC_API_KEY=[REDACTED: anthropic-key]",
        ["anthropic-key"],
    )


@pytest.mark.parametrize(
    "text",
    [
        "risk-assessment-document-for-the-review",  # "sk-" inside a kebab-case word
        "We use Bearer authentication for the API.",
        "SECRET_KEY = os.environ['SECRET_KEY']",
        "API_KEY=$API_KEY",
        'curl -H "Authorization: Bearer $API_TOKEN" https://api.example.org',
        "if API_KEY == expected:",
        "token = None",
        "PWD=/home/user/project",
        "monkey=banana turkey='roast'",
        "MY_KEY = get_key()",
        "http://localhost:8000/docs",
        "git@github.com:org/repo.git",
        "commit 3f2a9c0e1b7d4a6f8e2c1b0a9d8e7f6a5b4c3d2e",
    ],
)
def test_ordinary_text_is_left_alone(text):
    assert Redactor().redact_text(text) == (text, [])


def test_redaction_leaves_its_own_output_unchanged():
    redactor = Redactor()
    for text, _ in planted_secrets().values():
        once, _ = redactor.redact_text(text)
        assert redactor.redact_text(once) == (once, [])


def test_redact_value_covers_every_string_and_every_key():
    secrets = planted_secrets()
    github, aws, jwt = secrets["github-token"][1], secrets["aws-access-key"][1], secrets["jwt"][1]
    record: dict[str, Any] = {
        "n": 7,
        "speaker": "assistant",
        "text": f"pushing with {github}",
        "tool_name": "Bash",
        "tool_input": {"command": ["env", f"AWS_ID={aws}"], "options": {"cookie": jwt, "timeout": 30}},
        "thinking": "",
    }
    record["tool_input"][aws] = "value"  # a secret as a key
    record["tool_input"]["AKIA" + "F" * 16] = "other"  # a second one, redacted to the same marker
    redacted, kinds = Redactor().redact_value(record)
    assert sorted(kinds) == ["aws-access-key", "aws-access-key", "aws-access-key", "github-token", "jwt"]
    assert redacted["text"] == "pushing with [REDACTED: github-token]"
    assert redacted["tool_input"]["command"] == ["env", "AWS_ID=[REDACTED: aws-access-key]"]
    assert redacted["tool_input"]["options"] == {"cookie": "[REDACTED: jwt]", "timeout": 30}
    assert redacted["tool_input"]["[REDACTED: aws-access-key]"] == "value"
    assert redacted["tool_input"]["[REDACTED: aws-access-key] #2"] == "other"
    assert aws not in json.dumps(redacted)
    assert Redactor().redact_value(redacted) == (redacted, [])  # nothing more to find
    assert redacted["n"] == 7
    # A new record: the one passed in is unchanged.
    assert record["text"] == f"pushing with {github}"


def test_kinds_list_one_entry_per_replacement():
    key = "hf_" + "q" * 34
    assert Redactor().redact_text(f"{key} and {key}")[1] == ["huggingface-token", "huggingface-token"]


def test_allowed_strings_are_kept():
    example = "AKIA" + "EXAMPLE" + "X" * 9
    other = "AKIA" + "Z" * 16
    redactor = Redactor(allow=[example])
    assert redactor.redact_text(f"{example} {other}") == (f"{example} [REDACTED: aws-access-key]", ["aws-access-key"])
    # Allowed in an assignment too, where a broader pattern meets it.
    assert redactor.redact_text(f"EXAMPLE_KEY={example}") == (f"EXAMPLE_KEY={example}", [])


def test_extra_patterns_whole_match_or_secret_group():
    redactor = Redactor(
        extra_patterns={
            "internal-id": r"INT-[0-9]{6}",
            "session-cookie": r"sessionid=(?P<secret>[a-z0-9]+)",
        }
    )
    text = "order INT-123456, cookie sessionid=abc123def"
    assert redactor.redact_text(text) == (
        "order [REDACTED: internal-id], cookie sessionid=[REDACTED: session-cookie]",
        ["internal-id", "session-cookie"],
    )


def test_an_invalid_extra_pattern_is_an_error():
    with pytest.raises(re.error) as error:
        Redactor(extra_patterns={"bad": "("})
    assert "missing )" in str(error.value)


def test_the_sample_logs_hold_nothing_to_redact():
    redactor = Redactor()
    for path in sorted(SAMPLES.glob("*.json*")):
        text = path.read_text(encoding="utf-8")
        assert redactor.redact_text(text)[1] == [], path.name


def test_the_module_imports_neither_mkdocs_nor_markdown():
    code = (
        "import sys, msgref.redact; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mkdocs', 'markdown')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "hooks")},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "[]"


def test_a_value_nested_too_deeply_is_refused_with_the_limit():
    from msgref.redact import NestingError

    value: list[Any] = []
    for _ in range(150):
        value = [value]
    with pytest.raises(NestingError, match=r"^nests deeper than 100 levels"):
        Redactor().redact_value(value)
    for _ in range(51):  # from 151 levels to 100
        value = value[0]
    assert Redactor().redact_value(value) == (value, [])


@pytest.mark.parametrize("kind", KINDS)
def test_a_message_holding_a_secret_anywhere_may_hold_one(kind):
    line, _ = planted_secrets()[kind]
    redactor = Redactor()
    for value in (line, {"cmd": [line]}, {line: "x"}, [["a", {"b": line.upper() if kind == "bearer-token" else line}]]):
        assert redactor.may_hold_secret("clean text", value), value


def test_messages_without_hints_are_found_clean_at_once():
    redactor = Redactor()
    clean = ["Ran the tests: 12 passed.", {"command": "ls -la", "cwd": "/home/user"}, None, ["a", ["b"]]]
    assert not redactor.may_hold_secret(*clean)
    assert all(redactor.redact_value(value) == (value, []) for value in clean)
    # A pattern of the site's own has no hints: every message is tried with it.
    assert Redactor({"ticket": r"TICKET-\d+"}).may_hold_secret("Ran the tests.")
    value: list[Any] = []
    for _ in range(100):  # 101 lists, one in another
        value = [value]
    with pytest.raises(NestingError, match=r"^nests deeper than 100 levels"):
        redactor.may_hold_secret("text", value)
    assert not redactor.may_hold_secret("text", value[0])
