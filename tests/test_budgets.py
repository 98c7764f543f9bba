"""Token budgets for working contexts (seed 004: memory compression), adapted."""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import anthropic
import pytest

from doctree.memory.budgets import (
    COMPRESSION_THRESHOLD,
    MAX_COMPRESSION_PASSES,
    RETAIN_AFTER_COMPRESSION,
    BudgetManager,
    EstimatedTokenCounter,
    ModelSummarizer,
    SdkTokenCounter,
    WorkingContext,
    load_working_context,
    save_working_context,
    token_counter,
)
from doctree.memory.lines import estimate_tokens
from tests.fakes.messages_api import FakeMessagesServer, HttpError, Scripted, message, text_block

CHATTY = "{} called about the launch. They talked at length about unrelated things. It went on."


def entries(n, who="Alice"):
    return [CHATTY.format(f"{who}{i}") for i in range(n)]


def ctx(agent="a", limit=1000, summary="", facts=(), buffer=()):
    return WorkingContext(agent, limit, summary, list(facts), list(buffer))


@pytest.fixture
def manager():
    return BudgetManager()


# -- constants ---------------------------------------------------------------------------


def test_defaults_are_80_percent_keep_3_at_most_2_passes():
    assert (COMPRESSION_THRESHOLD, RETAIN_AFTER_COMPRESSION, MAX_COMPRESSION_PASSES) == (0.8, 3, 2)


# -- total context -----------------------------------------------------------------------


def test_total_context_tokens_empty_memory(manager):
    assert manager.total_tokens(ctx()) == 0


def test_total_context_tokens_summary_only(manager):
    assert manager.total_tokens(ctx(summary="Alice leads Apollo.")) == estimate_tokens(
        "Alice leads Apollo."
    )


def test_total_context_tokens_buffer_only(manager):
    c = ctx(buffer=["one entry here", "another entry"])
    assert manager.total_tokens(c) == estimate_tokens("one entry here") + estimate_tokens(
        "another entry"
    )


def test_total_context_tokens_includes_facts(manager):
    assert manager.total_tokens(ctx(facts=["Alice is Bob's sister"])) > 0


def test_total_context_tokens_full_context(manager):
    c = ctx(summary="s " * 10, facts=["f " * 5], buffer=["b " * 7])
    assert manager.total_tokens(c) == (
        manager.summary_tokens(c) + manager.facts_tokens(c) + manager.buffer_tokens(c)
    )


def test_is_total_context_over_limit_false_when_under(manager):
    assert not manager.is_over_limit(ctx(limit=100, summary="short"))


def test_is_total_context_over_limit_true_when_over(manager):
    assert manager.is_over_limit(ctx(limit=5, summary="word " * 20))


def test_working_context_rejects_a_nonpositive_limit():
    with pytest.raises(ValueError, match="token_limit 0 of agent 'a'"):
        ctx(limit=0)


# -- the 80% threshold and the buffer ---------------------------------------------------------


def limit_for(manager, c, share):
    """A limit at which `c` takes `share` of it."""
    return max(1, int(manager.total_tokens(c) / share))


def test_80_percent_threshold_triggers_compression(manager):
    c = ctx(buffer=entries(8))
    c.token_limit = limit_for(manager, c, 0.81)
    assert manager.fit(c).passes >= 1


def test_below_80_percent_nothing_is_compressed(manager):
    c = ctx(buffer=entries(8))
    c.token_limit = limit_for(manager, c, 0.7)
    report = manager.fit(c)
    assert report.passes == 0 and len(c.buffer) == 8


def test_compressed_entries_removed_from_buffer(manager):
    c = ctx(buffer=entries(8))
    c.token_limit = limit_for(manager, c, 0.9)
    report = manager.fit(c)
    assert report.compressed_entries == 5 and len(c.buffer) == 3


def test_recent_entries_always_retained(manager):
    c = ctx(buffer=entries(8))
    last = list(c.buffer[-3:])
    c.token_limit = limit_for(manager, c, 2.0)  # far over: every fallback runs
    manager.fit(c)
    assert c.buffer == last


def test_compressed_entries_are_merged_into_summary(manager):
    c = ctx(summary="- Zed is the project lead.", buffer=entries(5))
    c.token_limit = limit_for(manager, c, 0.9)
    manager.fit(c)
    assert c.summary.startswith("- Zed is the project lead.")
    assert "Alice0 called about the launch." in c.summary


def test_buffer_of_three_entries_is_not_compressed(manager):
    c = ctx(buffer=entries(3))
    assert manager.compress_buffer(c) == 0 and len(c.buffer) == 3


# -- passes -------------------------------------------------------------------------------


def test_single_pass_sufficient(manager):
    c = ctx(buffer=entries(10))
    c.token_limit = limit_for(manager, c, 1.05)
    report = manager.fit(c)
    assert report.passes == 1 and not report.over_limit


def test_fit_validates_after_compression(manager):
    c = ctx(buffer=entries(10))
    c.token_limit = limit_for(manager, c, 1.05)
    report = manager.fit(c)
    assert report.tokens_after == manager.total_tokens(c) <= c.token_limit


def weak_summary(n=20):
    return "\n".join(f"- the build stayed green on day {i} of the sprint" for i in range(n))


def test_two_pass_compression_when_needed(manager):
    strong = "- Alice is Bob's sister."
    c = ctx(summary=weak_summary() + "\n" + strong, buffer=entries(5))
    target = ctx(summary=strong, buffer=c.buffer[-3:])
    c.token_limit = manager.total_tokens(target) + 40
    report = manager.fit(c)
    assert report.passes == 2 and report.trimmed_lines == 0
    assert strong in c.summary and not report.over_limit


def scripted_summarizer(server):
    client = anthropic.Anthropic(api_key="k", base_url=server.base_url, max_retries=0)
    return ModelSummarizer(client)


def test_max_passes_prevents_infinite_loop():
    stubborn = message(
        text_block("\n".join(f"- long line {i} that never shrinks" for i in range(40)))
    )
    with FakeMessagesServer(Scripted([stubborn] * 5)) as server:
        manager = BudgetManager(summarizer=scripted_summarizer(server))
        c = ctx(limit=120, buffer=entries(6))
        report = manager.fit(c)
        calls = len(server.requests)
    assert report.passes == MAX_COMPRESSION_PASSES and calls == 2


def test_warning_logged_if_still_over_after_max_passes(caplog):
    stubborn = message(
        text_block("\n".join(f"- long line {i} that never shrinks" for i in range(40)))
    )
    with FakeMessagesServer(Scripted([stubborn] * 2)) as server:
        manager = BudgetManager(summarizer=scripted_summarizer(server))
        with caplog.at_level(logging.WARNING, logger="doctree.memory.budgets"):
            manager.fit(ctx(agent="scribe", limit=120, buffer=entries(6)))
    assert "agent scribe: context still" in caplog.text
    assert "after 2 compression passes" in caplog.text


def test_fallback_trims_oldest_part_of_summary():
    stubborn = message(text_block("\n".join(f"- line {i} kept by the model" for i in range(40))))
    with FakeMessagesServer(Scripted([stubborn] * 2)) as server:
        manager = BudgetManager(summarizer=scripted_summarizer(server))
        c = ctx(limit=150, buffer=entries(6))
        report = manager.fit(c)
    assert report.trimmed_lines > 0 and not report.over_limit
    assert c.summary.splitlines()[-1] == "- line 39 kept by the model"  # newest part kept
    assert "- line 0 kept by the model" not in c.summary


def test_context_that_cannot_fit_is_reported_over_limit(manager, caplog):
    c = ctx(limit=10, facts=["fact " * 50], buffer=entries(4))
    with caplog.at_level(logging.WARNING, logger="doctree.memory.budgets"):
        report = manager.fit(c)
    assert report.over_limit and "alone take" in caplog.text


def test_model_summarizer_sends_entries_to_the_model():
    with FakeMessagesServer(Scripted([message(text_block("- Alice0 called."))])) as server:
        manager = BudgetManager(summarizer=scripted_summarizer(server))
        c = ctx(limit=1000, buffer=entries(5))
        c.token_limit = limit_for(manager, c, 0.9)
        manager.fit(c)
        prompt = server.requests[0].body["messages"][0]["content"]
    assert "Alice0 called about the launch." in prompt and c.summary == "- Alice0 called."


# -- per-agent isolation --------------------------------------------------------------------


def test_agent_a_compression_doesnt_affect_agent_b(manager):
    a = ctx("a", buffer=entries(8))
    a.token_limit = limit_for(manager, a, 0.9)
    b = ctx("b", limit=100_000, summary="Bob's summary", buffer=entries(8, "Bob"))
    before = (b.summary, list(b.buffer))
    manager.manage([a, b])
    assert len(a.buffer) == 3
    assert (b.summary, b.buffer) == before


def test_multiple_agents_compress_independently(manager):
    a, b = ctx("a", buffer=entries(8)), ctx("b", buffer=entries(6, "Bob"))
    a.token_limit, b.token_limit = limit_for(manager, a, 0.9), limit_for(manager, b, 0.9)
    reports = manager.manage([a, b])
    assert reports["a"].compressed_entries == 5 and reports["b"].compressed_entries == 3
    assert "Bob" not in a.summary and "Alice" not in b.summary


def test_one_agent_failure_doesnt_block_others():
    ok = message(text_block("- Bob0 called."))
    with FakeMessagesServer(Scripted([HttpError(500, "down"), ok])) as server:
        manager = BudgetManager(summarizer=scripted_summarizer(server))
        a, b = ctx("a", limit=100, buffer=entries(6)), ctx("b", limit=100, buffer=entries(6, "Bob"))
        reports = manager.manage([a, b])
    assert reports["a"].error and reports["b"].error is None
    assert b.summary == "- Bob0 called."


def test_failed_agent_context_is_left_as_it_was():
    with FakeMessagesServer(Scripted([HttpError(500, "down")])) as server:
        manager = BudgetManager(summarizer=scripted_summarizer(server))
        a = ctx("a", limit=100, buffer=entries(6))
        manager.manage([a])
    assert a.buffer == entries(6) and a.summary == ""


# -- what compression keeps -------------------------------------------------------------------

STORY = [
    "Alice Moreau met Bob Chen at the Lisbon office. They chatted for ages about nothing.",
    "Bob Chen is Alice's brother-in-law. Small talk followed.",
    "The goal is to ship Apollo by 2026-12-01. Everyone agreed, then lunch.",
    "Filler entry one. More filler.",
    "Filler entry two. More filler.",
    "Filler entry three. More filler.",
]


def compressed_story(manager):
    c = ctx(buffer=list(STORY))
    c.token_limit = limit_for(manager, c, 0.9)
    manager.fit(c)
    return c.summary


def test_names_preserved(manager):
    summary = compressed_story(manager)
    assert "Alice Moreau" in summary and "Bob Chen" in summary


def test_goals_preserved(manager):
    assert "The goal is to ship Apollo by 2026-12-01." in compressed_story(manager)


def test_relationships_preserved(manager):
    assert "Bob Chen is Alice's brother-in-law." in compressed_story(manager)


def test_chatter_dropped(manager):
    assert "chatted for ages" not in compressed_story(manager)


# -- token counting ---------------------------------------------------------------------------


def test_estimate_tokens_empty_is_zero():
    assert estimate_tokens("") == 0


def test_estimate_tokens_about_1_3_per_word():
    assert estimate_tokens("one two three four five six seven eight nine ten") == 13


def test_estimate_tokens_counts_long_words_by_characters():
    assert estimate_tokens("x" * 400) == 100


def test_token_counter_is_offline_without_key(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert isinstance(token_counter(), EstimatedTokenCounter)


def test_token_counter_uses_the_sdk_with_a_key(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    assert isinstance(token_counter(), SdkTokenCounter)


class CountTokensFake:
    """`POST /v1/messages/count_tokens` on loopback: one token per 3 bytes of user text."""

    def __init__(self):
        self.requests: list[dict] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                fake.requests.append({"path": self.path, "body": body})
                text = body["messages"][0]["content"]
                data = json.dumps({"input_tokens": len(text.encode()) // 3}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def count_fake():
    fake = CountTokensFake()
    yield fake
    fake.stop()


def sdk_counter(fake):
    return SdkTokenCounter(anthropic.Anthropic(api_key="k", base_url=fake.base_url, max_retries=0))


def test_sdk_token_counter_asks_the_count_tokens_endpoint(count_fake):
    assert sdk_counter(count_fake).count("x" * 30) == 10
    assert count_fake.requests[0]["path"] == "/v1/messages/count_tokens"
    assert count_fake.requests[0]["body"]["model"] == "claude-haiku-4-5"


def test_sdk_token_counter_caches_repeated_text(count_fake):
    counter = sdk_counter(count_fake)
    counter.count("same text")
    counter.count("same text")
    assert len(count_fake.requests) == 1


def test_budget_manager_counts_with_the_sdk_counter(count_fake):
    manager = BudgetManager(counter=sdk_counter(count_fake))
    assert manager.total_tokens(ctx(summary="x" * 30, buffer=["y" * 9])) == 13


# -- the working context as documents ------------------------------------------------------------


def test_working_context_round_trips_through_documents(repo):
    c = ctx(
        "main", summary="- Alice is Bob's sister.", facts=["Alice: engineer"], buffer=entries(4)
    )
    save_working_context(repo, c)
    loaded = load_working_context(repo, "main", 1000)
    assert (loaded.summary, loaded.facts, loaded.buffer) == (c.summary, c.facts, c.buffer)


def test_compressed_entries_stay_in_history_of_the_buffer_document(repo, manager):
    c = ctx("main", buffer=entries(8))
    save_working_context(repo, c)
    c.token_limit = limit_for(manager, c, 0.9)
    manager.fit(c)
    save_working_context(repo, c)
    first = repo.read("main", "~/context/buffer", version=1).body
    assert "Alice0 called" in first
    assert "Alice0 called" not in repo.read("main", "~/context/buffer").body
