"""A pasted configuration file (KEY=value lines in a fence) is how something is set up: its
plain settings are kept, while a value that is a secret, by its look or by its setting's
name, never reaches a page, archive included."""

from __future__ import annotations

from doctree.agent.offline.segment import settings_sentence
from tests.agent.offline_runs import run, transcript

CONFIG = """Here is the config of the invoicing worker:

```
export QUEUE_NAME=invoices-eu
WORKER_THREADS=12
REGION="ap-southeast-2"
SESSION_SECRET=plainword4471
SMTP_PASSWORD=hunter2hunter2
BROKER_URL=amqp://svc:Zk81mQpL0x@10.9.4.2:5672/
```
"""


def test_plain_settings_of_a_pasted_config_are_kept_and_secret_values_are_not(repo):
    run(repo, transcript("s-config", ("user", "2029-02-01T10:00:00Z", CONFIG)))
    docs = {d.path: d.body for d in repo.documents("main", "~/memory")}
    pages = "\n".join(b for p, b in docs.items() if "/archive/" not in p)
    for setting in ("QUEUE_NAME=invoices-eu", "WORKER_THREADS=12", "REGION=ap-southeast-2"):
        assert setting in pages, pages
    everything = "\n".join(docs.values())
    for secret in ("plainword4471", "hunter2hunter2", "Zk81mQpL0x"):
        assert secret not in everything
    assert "SMTP_PASSWORD" in pages  # named as withheld, so a reader knows it exists


def test_a_block_of_only_secrets_or_of_code_gives_no_settings_line():
    assert settings_sentence(["API_KEY=abc123", "DB_PASSWORD=xyz"]) is None
    assert settings_sentence(["for i in range(3):", "    print(i)"]) is None


def test_a_line_that_withheld_a_password_keeps_the_model_number_said_with_it(repo):
    """The page keeps the sentence with a marker for the password; a model or part number
    later in it is no credential, also when the page is masked again on its way to the store."""
    for n, (said, model) in enumerate((
        ("The guest network password is copper-kettle-19 in case the scanner needs it,"
         " it's a Brother MFC-J4335DW in the den.", "MFC-J4335DW"),
        ("Alarm panel login is Falk-7731; the router beside it is an RT-AX58U by the door.",
         "RT-AX58U"),
    )):  # fmt: skip
        run(repo, transcript(f"s-said-{n}", ("user", "2029-02-01T10:00:00Z", said)))
        docs = {d.path: d.body for d in repo.documents("main", "~/memory")}
        everything = "\n".join(docs.values())
        assert model in docs["~/memory/notes"], docs["~/memory/notes"]  # its Secrets line
        assert "copper-kettle-19" not in everything and "Falk-7731" not in everything
