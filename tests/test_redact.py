"""Secret redaction: every kind, the text kept around a secret, the allow-list and
extra patterns. Secrets are obviously fake and built at run time, so that no
secret-looking literal sits in the repository."""

from __future__ import annotations

import base64
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from transcript.reader import load_transcript
from transcript.redact import SEAMS, NestingError, RedactedTranscript, Redactor
from transcript.secret_patterns import KINDS, PatternTimeout

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


def more_planted_secrets() -> dict[str, tuple[str, str]]:
    """The kinds added with the second version of the rules, as planted_secrets gives
    them (kept apart so that the import and build tests' counts of the first stand).
    Base64 is planted as what it reports: the kind found inside, `-base64`."""
    stripe = "sk_" + "live_" + "FAKE" + "0" * 20
    webhook = "whsec_" + "FAKE" + "w" * 28
    npm = "npm_" + "FAKE" + "n" * 32
    header = "9f8e7d6c5b4a3f2e1d0c"
    basic = base64.b64encode(b"deploy:correct-horse-9").decode()
    password = "Tr0ub4dor-3"
    field = "s3cr3t-Value-42"
    encoded = base64.b64encode(("ghp_" + "Q" * 36).encode()).decode()
    return {
        "stripe-key": (f"STRIPE = Stripe({stripe!r})", stripe),
        "stripe-webhook-secret": (f"endpoint secret {webhook} from the dashboard", webhook),
        "npm-token": (f"//registry.npmjs.org/:_authToken={npm}", npm),
        "api-key-header": (f'curl -H "X-Api-Key: {header}" https://api.example.org/v1', header),
        "basic-auth": (f"Authorization: Basic {basic}", basic),
        "command-password": (f"mysql -h db.internal -u admin -p{password} shop", password),
        "secret-field": (f'{{"user": "admin", "password": "{field}", "port": 5432}}', field),
        "github-token-base64": (f"data:\n  token: {encoded}\n", encoded),
    }


def newest_planted_secrets() -> dict[str, tuple[str, str]]:
    """The kinds added since, as more_planted_secrets gives them (kept apart for the
    same reason)."""
    webhook = "T0FAKE" + "0001/B0FAKE" + "0002/" + "fakeHook" + "w" * 16
    netrc = "n3trc-Pass&word"
    cookie = "session=" + "c0ffee" * 4
    return {
        "slack-webhook": (f"curl -X POST -d @msg.json https://hooks.slack.com/services/{webhook}", webhook),
        "netrc-password": (f"$ cat ~/.netrc\nmachine api.example.org\n  login deploy\n  password {netrc}\n", netrc),
        "cookie": (f"> GET / HTTP/1.1\n> Cookie: {cookie}\n", cookie),
    }


def all_planted_secrets() -> dict[str, tuple[str, str]]:
    return {**planted_secrets(), **more_planted_secrets(), **newest_planted_secrets()}


def test_every_kind_has_a_planted_secret():
    base64_kinds = {kind for kind in more_planted_secrets() if kind.endswith("-base64")}
    assert set(all_planted_secrets()) == set(KINDS) - {"base64"} | base64_kinds


PLANTED_KINDS = list(all_planted_secrets())


@pytest.mark.parametrize("kind", PLANTED_KINDS)
def test_each_kind_is_replaced_by_its_marker(kind):
    text, secret = all_planted_secrets()[kind]
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
    for text, _ in all_planted_secrets().values():
        once, kinds = redactor.redact_text(text)
        assert kinds
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
        "import sys, transcript.redact; "
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
    from transcript.redact import NestingError

    value: list[Any] = []
    for _ in range(150):
        value = [value]
    with pytest.raises(NestingError, match=r"^nests deeper than 100 levels"):
        Redactor().redact_value(value)
    for _ in range(51):  # from 151 levels to 100
        value = value[0]
    assert Redactor().redact_value(value) == (value, [])


@pytest.mark.parametrize("kind", PLANTED_KINDS)
def test_a_message_holding_a_secret_anywhere_may_hold_one(kind):
    line, _ = all_planted_secrets()[kind]
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


# --- The kinds of the second version of the rules -------------------------------------------

GITHUB = "ghp_" + "R" * 36


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("key = 'sk_" + "test_" + "a1" * 12 + "' # test mode", "key = '[REDACTED: stripe-key]' # test mode"),
        ("rk_" + "live_" + "Zz9" * 8 + ".", "[REDACTED: stripe-key]."),
        ("_authToken=abc-123-def\n_auth=dXNlcjpwYXNz\n",
         "_authToken=[REDACTED: npm-token]\n_auth=[REDACTED: npm-token]\n"),
        ("curl -H 'x-auth-token: 0123456789abcdef' https://x",
         "curl -H 'x-auth-token: [REDACTED: api-key-header]' https://x"),
        ("Private-Token: glpat12345678", "Private-Token: [REDACTED: api-key-header]"),
        ("Authorization: Token 9944b09199c6", "Authorization: Token [REDACTED: api-key-header]"),
        ("curl -u admin:hunter2 https://x", "curl -u admin:[REDACTED: command-password] https://x"),
        ('curl -s --user "ci:hunter2" https://x', 'curl -s --user "ci:[REDACTED: command-password]" https://x'),
        ("curl -fsS \\\n  -u ci:hunter2 https://x", "curl -fsS \\\n  -u ci:[REDACTED: command-password] https://x"),
        ("sshpass -p 'hunter2' ssh host", "sshpass -p '[REDACTED: command-password]' ssh host"),
        ("docker login -u me -p hunter2 reg.io", "docker login -u me -p [REDACTED: command-password] reg.io"),
        ("PGPASSWORD=hunter2 psql -h db", "PGPASSWORD=[REDACTED: secret-assignment] psql -h db"),
        ("MYSQL_PWD=hunter2 mysql", "MYSQL_PWD=[REDACTED: secret-assignment] mysql"),
        ("export TOKEN=abc123", "export TOKEN=[REDACTED: secret-assignment]"),
        ('{"client_secret": "xyz9", "access_token": "tok12345678"}',
         '{"client_secret": "[REDACTED: secret-field]", "access_token": "[REDACTED: secret-field]"}'),
        ('{\\"apiKey\\": \\"abc9\\"}', '{\\"apiKey\\": \\"[REDACTED: secret-field]\\"}'),
        ("db:\n  password: hunter2  # prod\n  - api_key: 'k3y!'\n",
         "db:\n  password: [REDACTED: secret-field]  # prod\n  - api_key: '[REDACTED: secret-field]'\n"),
        ('headers = {"X-Api-Key": "abc9"}', 'headers = {"X-Api-Key": "[REDACTED: secret-field]"}'),
    ],
)
def test_new_kinds_keep_the_text_around_the_secret(text, expected):
    assert Redactor().redact_text(text)[0] == expected


@pytest.mark.parametrize(
    "text",
    [
        "sk_test_helper = make_key()",  # a name, not a key: `_` is not in a key's body
        "pk_live_" + "a1" * 12,  # publishable: public by design
        "npm_config_registry=https://registry.npmjs.org/",
        "self._auth = auth\nself._password = None",
        "Send the X-Api-Key: header with each call.",
        'curl -H "X-Api-Key: $API_KEY" https://x',
        "X-Api-Key: <your key>",
        "Authorization: Basic $(echo -n user:pass | base64)",
        "curl -u admin https://x:8080",
        "curl -u user:password https://x",  # a placeholder
        "docker run -u 1000:1000 img",
        "mysql -u root -p shop",  # `-p` alone prompts
        "psql -h db -p 5432 && ssh -p 2222 host",
        "docker login -u me --password-stdin reg.io",
        '{"token": null, "token_type": "Bearer", "max_tokens": 10, "input_tokens": 5}',
        '{"token": "IDENT", "value": "x"}',  # a lexer's token
        '{"next_page_token": "CAEQAA12345678", "secret_name": "db", "sort_key": "id"}',
        'OUTPUT_TOKEN: "gen_ai.server.time_per_output_token";',
        "password: str\n    token: Optional[str] = None\napi_key: str | None = None\n",
        "token: ${{ secrets.GITHUB_TOKEN }}\npassword: <your password>\nsecret: \"{{ vault_pw }}\"\n",
        "Password: must be at least 8 characters\n",
        "password: config.db_password,\napi_key: process.env.API_KEY\n",
        "oauth: enabled\nauthor: ada\n",
        '"password": "********", "secret": "..."',
        '"passphrase": "string?", "secret": "\U0001f92b", "password": "abc"',  # a schema, an emoji, too short
        "monkey: banana12",
    ],
)
def test_new_kinds_leave_look_alikes_alone(text):
    assert Redactor().redact_text(text) == (text, [])


def test_a_key_named_like_a_secret_redacts_its_string_value():
    value = {"password": "hunter2", "token": "IDENT", "auth": "dXNlcjpodW50ZXIy", "api_key": "$KEY", "port": 5432,
             "nested": {"client_secret": "xyz9"}, "secret_name": "db"}
    redacted, kinds = Redactor().redact_value(value)
    assert redacted == {**value, "password": "[REDACTED: secret-field]", "auth": "[REDACTED: secret-field]",
                        "nested": {"client_secret": "[REDACTED: secret-field]"}}
    assert kinds == ["secret-field"] * 3
    assert Redactor().may_hold_secret({"password": "hunter2"})
    assert Redactor().redact_value(redacted) == (redacted, [])


@pytest.mark.parametrize(
    ("plain", "kind"),
    [
        ("user:" + GITHUB, "github-token-base64"),
        ("AKIA" + "T" * 16, "aws-access-key-base64"),
        ("-----BEGIN " + "EC PRIVATE KEY-----\nMHcCAQEE" + "B" * 64 + "\n-----END EC " + "PRIVATE KEY-----\n",
         "private-key-base64"),
        ("DB_PASSWORD=hunter2\nDB_HOST=db\n", "secret-assignment-base64"),
        ("redis://:hunter22@cache:6379/0", "url-password-base64"),
    ],
)
def test_a_secret_in_base64_redacts_the_whole_run(plain, kind):
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        for lead in ("", " ", ": "):  # the secret at each offset in a group of three bytes
            encoded = encode((lead + plain).encode()).decode()
            redacted, kinds = Redactor().redact_text(f"data:\n  value: {encoded}\n")
            assert redacted == f"data:\n  value: [REDACTED: {kind}]\n"
            assert kinds == [kind]


def test_a_secret_in_base64_broken_into_lines_is_found():
    text = ("The session's token, for the record, is " * 3) + GITHUB + " and nothing else." * 3
    blob = base64.encodebytes(text.encode()).decode()  # lines of 76
    assert blob.count("\n") > 2
    redacted, kinds = Redactor().redact_text(f"$ base64 notes.txt\n{blob}$ ls\n")
    assert redacted == "$ base64 notes.txt\n[REDACTED: github-token-base64]\n$ ls\n"
    assert kinds == ["github-token-base64"]


@pytest.mark.parametrize(
    "text",
    [
        base64.b64encode(b"just some ordinary text, nothing to hide here").decode(),
        base64.b64encode(bytes(range(200, 240))).decode(),  # not text
        "/home/user/project/src/redaction/patterns_for_secrets.py",
        "3f2a9c0e1b7d4a6f8e2c1b0a9d8e7f6a5b4c3d2e and RedactedTranscriptFieldsTestCase",
        "value: " + base64.b64encode(b"user:ghp_tooShortToBeAToken").decode(),
    ],
)
def test_base64_without_a_secret_is_left_alone(text):
    assert Redactor().redact_text(text) == (text, [])


def test_an_allowed_secret_is_kept_in_base64_too():
    example = "AKIA" + "EXAMPLE" + "X" * 9
    encoded = base64.b64encode(f"id={example}".encode()).decode()
    assert Redactor(allow=[example]).redact_text(encoded) == (encoded, [])


# --- A secret split between two fields -------------------------------------------------------

def test_a_token_split_between_thinking_and_text_is_redacted_on_both_sides():
    fields = {"thinking": "The token is " + GITHUB[:10], "text": GITHUB[10:] + " as printed.", "tool_input": None}
    redactor = Redactor()
    # Neither half is a token on its own.
    assert redactor.redact_value(fields["thinking"])[1] == redactor.redact_value(fields["text"])[1] == []
    redacted, found = redactor.redact_fields(fields)
    assert redacted == {"thinking": "The token is [REDACTED: github-token]",
                        "text": "[REDACTED: github-token] as printed.", "tool_input": None}
    assert found == {"thinking": ["github-token"], "text": ["github-token"], "tool_input": []}
    assert redactor.redact_fields(redacted) == (redacted, {"thinking": [], "text": [], "tool_input": []})


def test_a_split_inside_the_prefix_and_a_long_token_are_found():
    redactor = Redactor()
    assert redactor.fields_may_hold_secret({"thinking": "see g", "text": GITHUB[1:]})
    assert redactor.redact_fields({"thinking": "see g", "text": GITHUB[1:]})[0] == {
        "thinking": "see [REDACTED: github-token]", "text": "[REDACTED: github-token]"}
    long_jwt = _jwt() + "x" * 600  # runs past the first window
    thinking, text = "cookie " + long_jwt[:300], long_jwt[300:] + " end"
    assert redactor.redact_fields({"thinking": thinking, "text": text})[0] == {
        "thinking": "cookie [REDACTED: jwt]", "text": "[REDACTED: jwt] end"}


def test_what_shows_a_secret_may_be_across_the_seam():
    redacted, found = Redactor().redact_fields({"thinking": "https://admin:hunter2", "text": "@db.example.org/app"})
    assert redacted == {"thinking": "https://admin:[REDACTED: url-password]", "text": "@db.example.org/app"}
    assert found == {"thinking": ["url-password"], "text": []}


@pytest.mark.parametrize(
    ("thinking", "text"),
    [
        ("I will check the API", "KEY first."),
        ("Done.", GITHUB[10:]),  # a token-like tail with nothing before it
        ("the prefix ghp_", "\nis how GitHub tokens start"),
    ],
)
def test_fields_that_only_meet_are_left_alone(thinking, text):
    fields = {"thinking": thinking, "text": text}
    assert Redactor().redact_fields(fields) == (fields, {"thinking": [], "text": []})


def test_the_seams_are_thinking_then_text():
    assert SEAMS == (("thinking", "text"),)


def test_the_built_transcript_redacts_a_token_split_between_fields(tmp_path):
    record = {"n": 1, "speaker": "assistant", "provenance": "verbatim", "text": GITHUB[10:] + " done",
              "thinking": "token " + GITHUB[:10]}
    path = tmp_path / "transcript.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    told: list[tuple[int, list[str]]] = []
    transcript = RedactedTranscript(load_transcript(str(path)), Redactor(), lambda n, kinds: told.append((n, kinds)))
    shown = transcript.get(1)
    assert shown is not None
    assert (shown.thinking, shown.text) == ("token [REDACTED: github-token]", "[REDACTED: github-token] done")
    assert told == [(1, ["github-token", "github-token"])]


def test_a_password_named_again_is_redacted_with_it():
    secret = "Zq8-secret-9x"
    names = ["password", "password_confirmation", "password2", "passwordRepeat", "password-again", "PassWord",
             "new_password_confirmation", "PGPASSWORD", "DBPASSWORD", "MYSQL_PWD"]
    redacted, kinds = Redactor().redact_value(dict.fromkeys(names, secret))
    assert set(redacted.values()) == {"[REDACTED: secret-field]"} and len(kinds) == len(names)
    kept = {"PWD": "/home/ann", "password_hash_algorithm": "argon2id", "page_token": "abc"}
    assert Redactor().redact_value(kept) == (kept, [])


def test_a_secret_key_holding_a_list_a_number_or_a_name_value_pair_is_redacted():
    value = {"password": ["S3cr3t-1", "$VAR"], "pin_password": 987654321, "passwords": ["aaaa1111"],
             "env": [{"name": "DB_PASSWORD", "value": "Kube-s3cret"}, {"name": "DB_HOST", "value": "db.local"}]}
    redacted, _ = Redactor().redact_value(value)
    marker = "[REDACTED: secret-field]"
    assert redacted == {"password": [marker, "$VAR"], "pin_password": marker, "passwords": [marker],
                        "env": [{"name": "DB_PASSWORD", "value": marker}, {"name": "DB_HOST", "value": "db.local"}]}
    assert Redactor().redact_value({"password": {"minLength": 8}, "port": 5432})[1] == []  # a schema, a port


@pytest.mark.parametrize("text, kinds", [
    ("s3://AKIAIOSFODNN7EXAMPLQ:wJalrXUtnFEMIK7MDENG@bucket/p", ["aws-access-key", "url-password"]),
    ("https://ghp_" + "A" * 36 + ":S3cretPw@github.com/x", ["github-token", "url-password"]),
    ("curl -u AKIAIOSFODNN7EXAMPLQ:wJalrXUtnFEMIK7MDENG https://x", ["aws-access-key", "command-password"]),
])
def test_a_password_after_a_token_in_a_url_or_curl_is_redacted_too(text, kinds):
    redacted, found = Redactor().redact_text(text)
    assert found == kinds and "wJalr" not in redacted and "S3cretPw" not in redacted


@pytest.mark.parametrize("text, secret", [
    ("tool --api-key sk9aaaaaaaaaa run", "sk9aaaaaaaaaa"), ("gh auth --token ghx1234567 ok", "ghx1234567"),
    ("helm repo add x https://charts --password Hunter2x", "Hunter2x"),
])
def test_a_secret_after_a_flag_and_a_space_is_redacted(text, secret):
    redacted, found = Redactor().redact_text(text)
    assert found == ["command-password"] and secret not in redacted


@pytest.mark.parametrize("text", ["use the --token flag", "pass --password $PASS", "--token-file /etc/t"])
def test_a_flag_named_in_prose_or_given_a_variable_is_left_alone(text):
    assert Redactor().redact_text(text) == (text, [])


@pytest.mark.parametrize("before", ["x=", "value=", "--data=", "https://example.org/?p="])
def test_a_base64_token_after_an_equals_sign_is_found(before):
    encoded = base64.b64encode(b"ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8").decode()
    redacted, kinds = Redactor().redact_text(before + encoded)
    assert kinds == ["github-token-base64"] and redacted == before + "[REDACTED: github-token-base64]"


@pytest.mark.parametrize("value", ["Passw0rdSecure1", "MyS3cret", "A1b2C3d4", "Zq8xW2vN4pL7rT9k"])
def test_an_unquoted_yaml_password_with_digits_is_no_type_name(value):
    redacted, kinds = Redactor().redact_text(f"db:\n  password: {value}\n")
    assert kinds == ["secret-field"] and value not in redacted
    assert Redactor().redact_text("db:\n  password: PasswordField\n")[1] == []  # a type's name, of letters


@pytest.mark.parametrize("text, secret", [
    ("DefaultEndpointsProtocol=https;AccountName=a;AccountKey=" + "A" * 86 + "==;EndpointSuffix=x", "A" * 86),
    ("Endpoint=sb://x/;SharedAccessKeyName=R;SharedAccessKey=abcDEF123456=", "abcDEF123456"),
    ("https://a.blob.core.windows.net/c?sv=2020-08-04&sig=AbCdEf123456%3D&se=2030", "AbCdEf123456"),
])
def test_azure_keys_and_signatures_are_redacted(text, secret):
    redacted, kinds = Redactor().redact_text(text)
    assert kinds == ["secret-assignment"] and secret not in redacted


# --- The gaps closed by the fourth version of the rules -------------------------------------

PASSWORD = "Hunter2x9"  # each test's secret; with a digit, as a password often is


def _putty_key(version: int = 3, line_break: str = "\n", mac: bool = True) -> str:
    lines = [f"PuTTY-User-Key-File-{version}: ssh-ed25519", "Encryption: none", "Comment: ed25519-key-20260101",
             "Public-Lines: 2", "AAAAC3NzaC1lZDI1NTE5AAAAI" + "F" * 39, "AAAA", "Private-Lines: 1",
             "AAAAIFAKE" + "p" * 35]
    if version == 3:
        lines[4:4] = []
    if mac:
        lines.append("Private-MAC: " + "ab12" * 16)
    return line_break.join(lines)


@pytest.mark.parametrize("key", [
    _putty_key(), _putty_key(2), _putty_key(line_break="\r\n"), _putty_key(line_break="\\n"),
    _putty_key(mac=False),  # a cut-off output: as far as it goes
    _putty_key(line_break="\n    "),  # indented, in a heredoc
])
def test_a_putty_key_file_is_redacted_whole(key):
    redacted, kinds = Redactor().redact_text(f"$ cat id.ppk\n{key}\n$ ls\n")
    assert redacted == "$ cat id.ppk\n[REDACTED: private-key]\n$ ls\n"
    assert kinds == ["private-key"]


@pytest.mark.parametrize("text, expected", [
    ("url: https://hooks.slack.com/services/T0FAKE001/B0FAKE002/fakeHook" + "x1" * 8 + "\n",
     "url: https://hooks.slack.com/services/[REDACTED: slack-webhook]\n"),
    ("https://hooks.slack.com/workflows/T0FAKE001/A0FAKE002/123456789/fakeHook" + "x1" * 8,
     "https://hooks.slack.com/workflows/[REDACTED: slack-webhook]"),
    ("hooks.slack.com/triggers/T0FAKE001/1234567890123/" + "0f" * 16 + "\n",
     "hooks.slack.com/triggers/[REDACTED: slack-webhook]\n"),
])
def test_a_slack_webhook_keeps_its_host(text, expected):
    assert Redactor().redact_text(text) == (expected, ["slack-webhook"])


@pytest.mark.parametrize("template", [
    "redis-cli -h cache -p 6379 -a {} ping",
    "redis-cli --pass '{}' info",
    'mongosh "mongodb://db:27017" -u admin -p {} --authenticationDatabase admin',
    "docker exec -it db mongo -u root -p {}",
    "mongodump \\\n  -u admin \\\n  -p {} --out /backup",
    "podman login -u me -p {} quay.io",
    "htpasswd -b .htpasswd admin {}",
    "htpasswd -bcB /etc/nginx/.htpasswd admin {} && nginx -s reload",
    "htpasswd -nbB admin '{}'",
    "htpasswd -b -C 12 -B users.txt admin {}",
    "smbclient //srv/share -U ann%{} -c ls",
    "smbclient -L //srv --user='CORP\\ann%{}'",
    "rpcclient -U admin%{} 10.0.0.5",
    "openssl enc -aes-256-cbc -salt -in a -out b -pass pass:{}",
    "openssl pkcs12 -export -in c.pem -passout pass:{} -out c.p12",
    "openssl rsa -in k.pem -passin 'pass:{}'",
])
def test_more_commands_keep_all_but_their_password(template):
    redacted, kinds = Redactor().redact_text(template.format(PASSWORD))
    assert redacted == template.format("[REDACTED: command-password]") and kinds == ["command-password"]


@pytest.mark.parametrize("text", [
    "docker run -p 8080:80 nginx",
    "podman run -d -p 8080:80 --name web img",
    "docker run --name mongo -p 27017:27017 -d mongo:7",
    "docker run -p 6379:6379 redis && redis-cli -h localhost ping",
    "redis-cli -a $REDIS_PASSWORD ping",
    "mongosh -u admin -p",  # `-p` alone prompts
    "mongosh -u admin -p --authenticationDatabase admin",
    "ssh -p 2222 host; grep -a -p pattern file.txt | mongo-express",
    "htpasswd -c .htpasswd admin",  # prompts
    "htpasswd -B .htpasswd admin",
    "htpasswd -b .htpasswd admin $PASS",
    "smbclient -L //srv -U guest",
    "smbclient //srv/share -U ann%$SMB_PASS",
    "printf '%s' x -U a%b",  # no Samba client
    "openssl enc -aes-256-cbc -pass env:PASS -in f",
    "openssl rsa -passin file:pw.txt -in k.pem",
    "openssl rsa -passin stdin",
    "See https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX for the form",
    "Slack webhooks live at hooks.slack.com/services/...",
    "a .ppk file starts with PuTTY-User-Key-File-3, then its headers",
])
def test_commands_without_a_password_and_placeholders_are_left_alone(text):
    assert Redactor().redact_text(text) == (text, [])


@pytest.mark.parametrize("text, expected", [
    (f"<password>{PASSWORD}</password>", "<password>[REDACTED: secret-field]</password>"),
    (f"<server>\n  <id>repo</id>\n  <password>{PASSWORD}</password>\n</server>",
     "<server>\n  <id>repo</id>\n  <password>[REDACTED: secret-field]</password>\n</server>"),
    ("<ns:ClientSecret>s3cr3t-Value</ns:ClientSecret>", "<ns:ClientSecret>[REDACTED: secret-field]</ns:ClientSecret>"),
    (f'<add key="DbPassword" value="{PASSWORD}"/>', '<add key="DbPassword" value="[REDACTED: secret-field]"/>'),
    (f'<property name="hibernate.connection.password" value="{PASSWORD}" />',
     '<property name="hibernate.connection.password" value="[REDACTED: secret-field]" />'),
    (f'<add key=\\"ApiKey\\" value=\\"{PASSWORD}\\"/>', '<add key=\\"ApiKey\\" value=\\"[REDACTED: secret-field]\\"/>'),
    (f"{{user: ann, password: {PASSWORD}}}", "{user: ann, password: [REDACTED: secret-field]}"),
    (f"db: {{host: db, password: {PASSWORD}, port: 5432}}\n",
     "db: {host: db, password: [REDACTED: secret-field], port: 5432}\n"),
    ("- {name: ci, api_key: k3y-0123456789}", "- {name: ci, api_key: [REDACTED: secret-field]}"),
    (f"users:\n  - name: ann\n    password: {PASSWORD}\n  - password: {PASSWORD}\n",
     "users:\n  - name: ann\n    password: [REDACTED: secret-field]\n  - password: [REDACTED: secret-field]\n"),
    (f"name\tvalue\nsmtp_password\t{PASSWORD}\nsmtp_host\tmail.example.org\n",
     "name\tvalue\nsmtp_password\t[REDACTED: secret-field]\nsmtp_host\tmail.example.org\n"),
    (f'export PASSWORD=\\"{PASSWORD}\\"', 'export PASSWORD=\\"[REDACTED: secret-assignment]\\"'),
])
def test_passwords_in_xml_flow_yaml_tables_and_escaped_quotes_are_redacted(text, expected):
    redacted, kinds = Redactor().redact_text(text)
    assert redacted == expected and PASSWORD not in redacted
    assert kinds == re.findall(r"\[REDACTED: ([a-z-]+)\]", expected)
    assert Redactor().redact_text(redacted) == (redacted, [])


def test_json_escaped_twice_is_redacted():
    once = json.dumps({"user": "ann", "password": PASSWORD})
    twice = json.dumps(json.dumps(once))
    for text in (twice, twice[1:-1]):
        assert "\\\\\\\"password\\\\\\\"" in text  # `\\\"password\\\"`: escaped twice
        redacted, kinds = Redactor().redact_text(f"echo {text}")
        assert PASSWORD not in redacted and kinds == ["secret-field"]


@pytest.mark.parametrize("text", [
    "The password is required; set a strong password for the admin account.",
    'password = os.environ["X"]',
    "<label>Password</label><input type=\"password\" name=\"password\">",
    "<password>${DB_PASSWORD}</password><password></password><token>IDENT</token>",
    '<add key="Timeout" value="30"/>',  # the key named a value: it was redacted as an assignment
    '<add key="DbPassword" value="$(DbPassword)"/>',
    "const cfg = {user: name, password: userPassword}",
    "login({ username, password: hashed_pw })",
    "{ password: z.string().min(8), token: string }",
    "type Creds = {user: string, password: string}",
    "const o = {\n  password: user_password,\n  token: someToken,\n}",
    "{password: password}",
    "password\tRequired\nPassword\tmust be 8 characters\nid\tpassword\tname\ntoken\t12\n",
])
def test_prose_code_and_schemas_naming_a_password_are_left_alone(text):
    assert Redactor().redact_text(text) == (text, [])


@pytest.mark.parametrize("before", ["https://example.org/v1/secrets/", "key-", "id+", "path/to_", "a/b/"])
def test_a_base64_token_after_a_separator_is_found_and_the_text_before_kept(before):
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        for lead in ("", " ", ": "):  # the token at each offset in a group of three bytes
            encoded = encode((lead + GITHUB).encode()).decode()
            redacted, kinds = Redactor().redact_text(before + encoded + " done")
            assert redacted == before + "[REDACTED: github-token-base64] done"
            assert kinds == ["github-token-base64"]


@pytest.mark.parametrize("text", [
    "https://example.org/files/" + base64.b64encode(b"just some ordinary text, nothing to hide here").decode(),
    "data:image/png;base64," + base64.b64encode(bytes(range(256)) * 4).decode(),
    "/Users/Ann/Projects/SomeLongCamelCaseFolderName/AnotherQuiteLongName/File.swift",
    "id-" + base64.b64encode(b"user:ghp_tooShortToBeAToken").decode(),
])
def test_base64_after_a_separator_without_a_secret_is_left_alone(text):
    assert Redactor().redact_text(text) == (text, [])


# A megabyte of near-misses of each rule of the fourth version: each is searched in far
# less than the bound, which only a search that backtracks badly would come near.
NEAR_MISSES = {
    "putty": "PuTTY-User-Key-File-3: ssh-ed25519 Comment: x ",
    "slack-webhook": "https://hooks.slack.com/services/T0123ABCD/B0123ABCD/",
    "redis-cli": "redis-cli -h host -a -p ",
    "mongosh": "mongosh -u admin -p -x 27017:27017 ",
    "flag-far-from-its-command": "mongo " + "x " * 20 + "-p -a -U ",
    "smbclient": "smbclient //srv/share -U ann -U %x ",
    "openssl": "openssl enc -pass env:X -passin pass ",
    "htpasswd": "htpasswd -b -c -B file user ",
    "xml-element": "<password><token>a</b>",
    "xml-attribute": '<add key="DbPassword" value=x ',
    "flow-mapping": "{password: abc def, token: x y ",
    "tab": "password\tabc def\t",
    "json-escaped-twice": '\\\\\\"password\\\\\\": \\\\\\"',
    "base64-after-a-separator": "org/api/v1/Z2hwX1JSUl/",
}


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_a_megabyte_of_near_misses_is_searched_quickly(name):
    unit = NEAR_MISSES[name]
    text = (unit * (1_000_000 // len(unit) + 1))[:1_000_000]
    started = time.process_time()
    Redactor().redact_text(text)
    assert time.process_time() - started < 2.0


# --- Secrets wherever they start, and whole ------------------------------------------

def _fake(prefix: str, body: str = "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5") -> str:
    return prefix + body


TOKENS_BY_SHAPE = {
    "github-token": _fake("gh" + "p_"),
    "github-pat": _fake("github_" + "pat_11ABCDEFG0", "a" * 50),
    "anthropic-key": _fake("sk-" + "ant-api03-", "aB3dE5gH7jK9" * 4),
    "openai-key": _fake("sk-" + "proj-", "aB3dE5gH7jK9" * 4),
    "openai-bare": _fake("sk-", "aB3dE5gH7jK9" * 4),
    "huggingface-token": _fake("h" + "f_"),
    "aws-access-key": "AKIA" + "QWERTYUIOP234567",
    "slack-token": "xox" + "b-1234567890-" + "abcdefghij" * 2,
    "google-api-key": _fake("AI" + "za"),
    "stripe-key": _fake("sk_" + "live_", "aB3dE5gH7jK9" * 2),
    "stripe-webhook-secret": _fake("wh" + "sec_"),
    "npm-token": _fake("np" + "m_", "aB3dE5gH7jK9" * 3),
    "jwt": _jwt(),
}
# What real logs put right before a token: a word's letter or digit, `_`, JSON's escapes
# (a tool's output holding JSON text), a URL's percent-encoding, an MCP tool's name.
BEFORE_A_TOKEN = ["x", "Z", "9", "_", "\\n", "\\t", "\\r\\n", "\\\\n", "\\u0022", "%0A", "%22", "mcp__", "mcp__srv__"]


@pytest.mark.parametrize("before", BEFORE_A_TOKEN)
@pytest.mark.parametrize("shape", list(TOKENS_BY_SHAPE))
def test_a_token_is_redacted_whatever_stands_before_it(shape, before):
    token = TOKENS_BY_SHAPE[shape]
    redacted, kinds = Redactor().redact_text(f'{{"out": "done{before}{token}\\nnext"}}')
    assert token[4:] not in redacted and len(kinds) == 1, redacted


@pytest.mark.parametrize("word", ["task-" + "abcdefghijklmnopqrstuvwxyz", "disk-" + "0123456789abcdefghijk",
                                  "ask-" + "ABCDEFGHIJKLMNOPQRSTUVW", "risk-" + "assessment_for_the_quarter_2026"])
def test_a_word_ending_in_sk_before_a_run_of_one_kind_is_no_key(word):
    assert Redactor().redact_text(f"see {word} for details") == (f"see {word} for details", [])


PASSWORD = "abc" + "{}" + "Wm3Tr0ubK9"


@pytest.mark.parametrize("inside", ["&", ";", ",", ")", "}", "<", ">", "(", "[", "]", "#", "!", "|"])
@pytest.mark.parametrize("form", [
    "DB_HOST=db\nDB_PASSWORD={}\nDB_PORT=5432\n",  # an env file
    "[database]\nhost = db\npassword = {}\n",  # INI
    "protocol=https\nhost=github.com\nusername=me\npassword={}\n",  # git credential fill
    "psql 'host=db port=5432 password={} dbname=app'",  # libpq
    "export API_TOKEN={}",
])
def test_a_password_is_taken_up_to_its_real_end(form, inside):
    password = PASSWORD.format(inside)
    redacted, kinds = Redactor().redact_text(form.format(password))
    assert "Wm3Tr0ubK9" not in redacted and f"abc{inside}" not in redacted and kinds, redacted


@pytest.mark.parametrize("line", ["password = correct horse battery", "password = Tr0ub4dor 3 # rotated"])
def test_an_ini_password_with_spaces_is_taken_whole(line):
    redacted, _ = Redactor().redact_text(f"[smtp]\nuser = me\n{line}\n")
    assert redacted == "[smtp]\nuser = me\npassword = [REDACTED: secret-assignment]" + (
        " # rotated\n" if "#" in line else "\n")


@pytest.mark.parametrize("code", [
    "password = getpass.getpass('Password: ')", "password = request.form['password']",
    "token = hashlib.sha256(seed).hexdigest()", "f(password=get_password(), user=u)",
    "password = user_password if remember else None", "API_KEY = os.environ[\"API_KEY\"]",
])
def test_code_assigning_a_password_is_left_alone(code):
    assert Redactor().redact_text(f"{code}\nother = 1\n") == (f"{code}\nother = 1\n", [])


@pytest.mark.parametrize("code, kept", [("f(password=Tr0ub4dor3)", ")"), ("{password=Tr0ub4dor3}", "}"),
                                        ("g(token=Tr0ub4dor3, x)", ", x)")])
def test_a_value_in_code_ends_before_what_closes_the_call(code, kept):
    redacted, _ = Redactor().redact_text(code)
    assert "Tr0ub4dor3" not in redacted and redacted.endswith("[REDACTED: secret-assignment]" + kept)


@pytest.mark.parametrize("url, kept", [
    ("postgres://me:abc#Wm3Tr0ubK9@db/app", "postgres://me:[REDACTED: url-password]@db/app"),
    ("postgres://me:abc/Wm3Tr0ubK9@db/app", "postgres://me:[REDACTED: url-password]@db/app"),
    ("https://host.example:8080/@someone", "https://host.example:8080/@someone"),
    ("https://api.example.org/v1?user=me&token=Wm3Tr0ubK9&page=2", "https://api.example.org/v1?user=me&token="
     "[REDACTED: secret-assignment]&page=2"),
])
def test_a_url_s_password_runs_to_its_at_sign(url, kept):
    assert Redactor().redact_text(url)[0] == kept


@pytest.mark.parametrize("text, kept", [
    ("machine api.example.org login me password Wm3Tr0ubK9", "machine api.example.org login me password "
     "[REDACTED: netrc-password]"),
    ("default login anonymous password Wm3Tr0ubK9\n", "default login anonymous password [REDACTED: netrc-password]\n"),
    ("Cookie: sid=Wm3Tr0ubK9; theme=dark\n", "Cookie: [REDACTED: cookie]\n"),
    ('{"headers": {"set-cookie": "sid=Wm3Tr0ubK9; Path=/; HttpOnly"}}', '{"headers": {"set-cookie": '
     '"[REDACTED: cookie]"}}'),
    ("curl --cookie 'sid=Wm3Tr0ubK9' https://example.org", "curl --cookie '[REDACTED: cookie]' https://example.org"),
    ("<password><![CDATA[Wm3Tr0ubK9]]></password>", "<password><![CDATA[[REDACTED: secret-field]]]></password>"),
    ("db:\n  password: &db_pw Wm3Tr0ubK9\n", "db:\n  password: &db_pw [REDACTED: secret-field]\n"),
    ('db:\n  "password": Wm3Tr0ubK9\n', 'db:\n  "password": [REDACTED: secret-field]\n'),
    ("db:\n  'password': !!str Wm3Tr0ubK9\n", "db:\n  'password': !!str [REDACTED: secret-field]\n"),
])
def test_netrc_cookies_cdata_and_yaml_s_anchors_and_quoted_keys(text, kept):
    assert Redactor().redact_text(text)[0] == kept


@pytest.mark.parametrize("text", [
    "the password is set in the admin panel", "Set the Cookie: header yourself", "machine learning password policy",
    'const o = {\n  "password": userPassword,\n}',
])
def test_prose_about_netrc_and_cookies_is_left_alone(text):
    assert Redactor().redact_text(text) == (text, [])


def test_a_private_key_read_in_two_parts_is_redacted_in_both():
    key = _private_key()
    first, second = key[: len(key) // 2], key[len(key) // 2 :]
    for part in (first, second, second.replace("\n", "\\n")):
        redacted, kinds = Redactor().redact_text(f"cat-file output:\n{part}\ndone")
        assert kinds == ["private-key"] and "MIIEfake" not in redacted and "AAAAAAAAAAAAAAAA" not in redacted, redacted
    assert Redactor().redact_text("-----END RSA " + "PRIVATE KEY-----") == ("-----END RSA " + "PRIVATE KEY-----", [])


@pytest.mark.parametrize("disguise", [
    lambda token: "".join(chr(ord(c) + 0xFEE0) for c in token),  # full-width
    lambda token: token[:10] + "\u200b" + token[10:],  # a zero-width space inside
    lambda token: "\u2060".join(token),  # a word joiner between every two
    lambda token: token[:8] + "\u00ad" + token[8:20] + "\ufeff" + token[20:],
])
def test_a_token_in_look_alike_or_invisible_characters_is_redacted(disguise):
    token = TOKENS_BY_SHAPE["github-token"]
    text = f"pasted: {disguise(token)} (from the settings page)"
    redacted, kinds = Redactor().redact_text(text)
    assert redacted == "pasted: [REDACTED: github-token] (from the settings page)" and kinds == ["github-token"]
    assert Redactor().may_hold_secret(text)
    assert Redactor().redact_text(redacted) == (redacted, [])


def test_a_service_token_none_of_the_own_patterns_knows_is_redacted_by_the_maintained_rules():
    """Betterleaks' rules, the second opinion: a GitLab token, which no pattern here has."""
    token = "glpat-" + "aB3dE5gH7jK9mN1pQ3sT"
    redacted, kinds = Redactor().redact_text(f"git clone https://oauth2:{token}@gitlab.example.org/x.git\n"
                                             f"GITLAB={token}")
    assert token not in redacted and kinds and all(kind for kind in kinds)
    assert Redactor().redact_text(redacted) == (redacted, [])


def test_a_tool_name_holding_a_token_is_redacted():
    fields: dict[str, object] = {"text": "", "thinking": None, "tool_input": {},
                                 "tool_name": "mcp__" + TOKENS_BY_SHAPE["github-token"]}
    redacted, found = Redactor().redact_fields(fields)
    assert redacted["tool_name"] == "mcp__[REDACTED: github-token]" and found["tool_name"] == ["github-token"]


# --- A site's own pattern, bounded in time -----------------------------------------

BACKTRACKING = {"evil": "(a|aa)+$"}


def test_a_site_s_own_pattern_that_backtracks_without_end_stops_with_its_name():
    start = time.monotonic()
    with pytest.raises(PatternTimeout, match="the pattern 'evil' searched one text for more than 1 s"):
        Redactor(BACKTRACKING).redact_text("a" * 40 + "!")
    assert time.monotonic() - start < 10
    assert Redactor(BACKTRACKING).redact_text("aaaa") == ("[REDACTED: evil]", ["evil"])


def test_a_site_s_own_pattern_redacts_as_before():
    redactor = Redactor({"order-id": r"ORDER-(?P<secret>\d{4,})"})
    assert redactor.redact_text("see ORDER-12345 and ORDER-99") == ("see ORDER-[REDACTED: order-id] and ORDER-99",
                                                                    ["order-id"])


def test_the_build_stops_on_a_site_pattern_that_backtracks_naming_the_transcript_line(project, tmp_path):
    from conftest import build

    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("  transcript:\n", "  transcript:\n    redact_patterns: "
                                                 "{evil: '(a|aa)+$'}\n", 1))
    transcript = project / "docs" / "transcript.jsonl"
    lines = transcript.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[-1])
    record["text"] = "a" * 40 + "!"
    lines[-1] = json.dumps(record)
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page = project / "docs" / "conclusion.md"
    page.write_text(page.read_text() + f"\n\nThe last one [msg {record['n']}].\n")
    result = build(project, tmp_path / "site", timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert re.search(rf"ERROR\s+-\s+docs/transcript\.jsonl:{len(lines)}: redact_patterns: the pattern 'evil' "
                     r"searched one text for more than 1 s", result.stderr), result.stderr


def test_the_importer_stops_on_such_a_pattern_naming_the_log_line(tmp_path):
    log = tmp_path / "session.jsonl"
    lines = [{"type": "user", "uuid": "u1", "message": {"role": "user", "content": "hello"}},
             {"type": "user", "uuid": "u2", "message": {"role": "user", "content": "a" * 40 + "!"}}]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "import_transcript.py"), str(log), "-o",
                             str(tmp_path / "t.jsonl"), "--redact-pattern", "evil=(a|aa)+$"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{log}:2: --redact-pattern: the pattern 'evil' searched one text"), result.stderr
    assert not (tmp_path / "t.jsonl").exists()


def test_a_process_forked_after_asking_the_second_opinion_can_still_ask_it():
    """Betterleaks runs in a process of its own: a Go runtime loaded in this one would
    hang a child forked from it (the build's worker) once Go needs its threads."""
    token = "glpat-" + "Zx9Kq2Lm4Np6Rs8Tv0Wy"
    redactor = Redactor()
    assert redactor.redact_text(token) == ("[REDACTED: gitlab-pat]", ["gitlab-pat"])
    child = os.fork()
    if child == 0:  # pragma: no cover - the child ends here
        asked = [redactor.redact_text(f"{token} line {n} " * 100)[1] for n in range(300)]
        os._exit(0 if all(kinds == ["gitlab-pat"] * 100 for kinds in asked) else 1)
    deadline = time.monotonic() + 120
    while (ended := os.waitpid(child, os.WNOHANG)) == (0, 0) and time.monotonic() < deadline:
        time.sleep(0.1)
    if ended == (0, 0):
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
    assert ended[0] == child and os.waitstatus_to_exitcode(ended[1]) == 0


def test_an_assignment_in_json_text_ends_at_its_escaped_line_break():
    text = '{"out": "DB_HOST=db\\nDB_PASSWORD=Wm3&Tr0ubK9\\nDB_PORT=5432\\n"}'
    assert Redactor().redact_text(text)[0] == (
        '{"out": "DB_HOST=db\\nDB_PASSWORD=[REDACTED: secret-assignment]\\nDB_PORT=5432\\n"}')


def test_a_netrc_entry_in_json_text_is_found_across_its_escaped_line_breaks():
    text = '{"out": "machine api.example.org\\n  login me\\n  password\\n    Wm3Tr0ubK9\\n"}'
    assert Redactor().redact_text(text)[0] == (
        '{"out": "machine api.example.org\\n  login me\\n  password\\n    [REDACTED: netrc-password]\\n"}')
