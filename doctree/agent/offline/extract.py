"""Extract: the sentences of a session worth reading, and what kind of statement each is.

It reads the turns in order, as a person would: a user's plain statement, preference,
decision, rule, date or health fact; what the assistant found, kept when the user accepts
it or a tool's result answered the user; a request to forget, acted on at once; a value
corrected as it is said ("Thursday — no, Friday", "actually make that three"). For each
sentence it finds the names (`entities`) and resolves dates, corrections and pronouns
(`resolve`) before reading the next one, because a pronoun can only mean someone named
before it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from doctree.agent.offline import afterthought, shifts, supersession
from doctree.agent.offline import language as lang
from doctree.agent.offline.answers import answered, answered_parts
from doctree.agent.offline.clauses import another_subject, clause_left, names_any
from doctree.agent.offline.directory import Directory, person_slug
from doctree.agent.offline.earlier import Earlier, asks_all, named_conversation
from doctree.agent.offline.entities import find_entities
from doctree.agent.offline.enumerations import (
    choice,
    edited,
    entries,
    pointed,
    restates,
    says_besides,
    switched,
    whose_entry,
)
from doctree.agent.offline.figures import confirmed, with_figures
from doctree.agent.offline.forms import said_forms, says_sum
from doctree.agent.offline.labels import as_line, labelled_value
from doctree.agent.offline.language import FIRST_PERSON, NAME, NOT_NAMES, content_words, mentions
from doctree.agent.offline.lexicon import common_word
from doctree.agent.offline.model import Analysis, EarlierForget, Segmented, Sentence, Turn
from doctree.agent.offline.numeric import numeric_dates
from doctree.agent.offline.positions import (
    EXPLAINS,
    Said,
    besides,
    named,
    position,
    said_instead,
    states,
    withdrawn,
    withdraws,
)
from doctree.agent.offline.prefilter import gate_patterns
from doctree.agent.offline.proposals import countered, is_proposal, proposed
from doctree.agent.offline.recap import (
    as_users,
    asked_off,
    clauses,
    dates_unread,
    heard_of,
    lets_stand,
    list_items,
    names_any_of,
    recapped,
    restated,
    says_more,
    standing,
    unread,
    voiced,
    words_of,
)
from doctree.agent.offline.records import Record, used_by
from doctree.agent.offline.referred import (
    ReferredSoFar,
    ThingTest,
    confirmed_people,
    restated_dates,
    restated_people,
)
from doctree.agent.offline.resolve import (
    Context,
    absolute_dates,
    bare_corrected,
    called_off_earlier,
    calls_something_off,
    contrasted_earlier,
    contrasted_value_earlier,
    corrected_earlier,
    correction_of,
    fix_last_value,
    holds_value,
    link_known_names,
    message_date,
    referent,
    resolve_pronouns,
    resolve_relative,
    restates_earlier,
    session_dates,
    swapped_earlier,
    values_contrasted,
    weekly_heading,
    weekly_line,
)
from doctree.agent.offline.segment import ADDRESSED, record_shape, same_list, split_sentences
from doctree.agent.offline.spelled import spelled_words
from doctree.agent.offline.spoken import spoken_figures
from doctree.agent.offline.subject import RECORD_OF
from doctree.agent.offline.sums import checked_sums
from doctree.memory.secrets import Secret, mask, secret_location
from doctree.stopwords import ENGLISH

_PREFERENCE = re.compile(
    r"\b(?:i|we)\s+(?:really\s+|much\s+|strongly\s+|always\s+)?"
    r"(?:prefer|like|love|hate|dislike|can't stand|don't like|do not like)\b"
    r"|\bi(?:'m|\s+am)\s+(?:a\s+)?(?:vegetarian|vegan|allergic|lactose|gluten)"
    r"|\bmy\s+favou?rite\b"
    r"|^(?:(?:and|also|but|so|please|oh),?\s+)*(?:don't|do not|never|always|avoid)\b"
    # the user's liking said without "I": "Loathe open-plan offices.", "Much prefer tea."
    r"|^(?:(?:and|also|but|so|oh|honestly|really|much),?\s+)*(?:prefer|love|hate|loathe|"
    r"detest|adore|can't\s+stand|cannot\s+stand|can't\s+bear|not\s+a\s+fan\s+of)\s+"
    r"(?!you\b|it\b|that\b|this\b)"
    r"|\bi\s+(?:can't|cannot|can\s+not|won't|don't)\s+(?:do|make|attend|eat|drink|work|travel|"
    r"fly|drive|take|join|meet)\b"
    # what the user wants to be called: "Call me Sam, not Samantha.", "I go by Ali now."
    r"|^(?:(?:and|also|but|so|please|oh|just),?\s+)*call\s+me\s+(?-i:[A-Z])"
    r"|\bi\s+(?:go|went)\s+by\s+(?-i:[A-Z])"
    r"|\bi(?:'ve|\s+have)?\s+(?:switched|changed)\s+to\b|\bi(?:'ve|\s+have)?\s+(?:gave\s+up|given\s+up|"
    r"quit|stopped)\b",
    re.I,
)
#: How things are set up ("we use Linear for tickets"): kept in notes when nothing else holds it.
_SETUP = re.compile(
    r"\b(?:we|i)\s+(?:use|are\s+using|run|host|deploy\s+(?:to|on)|work\s+with|switched\s+to|"
    r"moved\s+to|pay\s+for|subscribe\s+to)\b|\bour\s+[\w-]+\s+(?:is|are|runs|lives)\b",
    re.I,
)
_DECISION = re.compile(
    r"\bwe(?:'ve|\s+have)?\s+(?:decided|agreed|chose|settled\s+on)\b"
    r"|\bwe're\s+going\s+with\b|\blet's\s+(?:go\s+with|use|book|pick|choose)\b"
    # the user's own choice: "Going with the Ninja.", "I'll go for the blue one", "Decided on
    # the Kensington one"
    r"|\b(?:i|we)(?:'ve|\s+have)?\s+(?:decided\s+on|settled\s+on|opted\s+for)\s+"
    r"|\b(?:i|we)(?:'ll|\s+will)\s+go\s+(?:with|for)\s+(?:the|that|this)\b"
    r"|^\W*(?:(?:ok(?:ay)?|right|so|yeah|yep)[,.!]?\s+)?(?:going\s+with|decided\s+on|"
    r"settled\s+on|opted\s+for)\s+(?:the|that|this)\b(?!.*\b(?:to|for)\s+(?:the|a)\b)"
    r"|\bdecision:"
    # "Tagine with quinoa it is.": a choice made, not "I know what it is."
    r"|^(?:[\w']+[,!]\s+)?(?!(?:it|that|this|so|there|here)\b)"
    r"(?!.*\b(?:what|whatever|how|who|where|when|why|which|know|knew|think|see|wonder)\b)"
    r"(?![a-z]+ly\s)"  # "pleasantly exhausted it is": a word for a mood, not a thing chosen
    r"\w+(?:\s+[\w'-]+){0,5}\s+it\s+is[.!]*$",
    re.I,
)
_REMEMBER = re.compile(
    r"\bremember\s+(?:that\s+)?|\bnote\s+that\b|\bkeep\s+in\s+mind\b|"
    r"\b(?:(?:make|take)\s+a\s+note|put\s+down|write\s+down|jot\s+down|note\s+down)\s+that\b",
    re.I,
)
#: A participant's line in pasted notes: "Wei: finished the export".
_ITEM_LABEL = re.compile(rf"^(?P<name>{NAME})\s*(?::|\s[-–—])\s+")
#: An action item of pasted notes with its owner: "Action (Tomas): book the room".
_ACTION_ITEM = re.compile(
    rf"^(?i:action(?:\s+items?)?|to-?do|task|follow-?up|next\s+step)\s*\((?P<who>{NAME}|(?i:me|i))\)"
    r"\s*:\s+"
)


def extract(segmented: Segmented, directory: Directory) -> Analysis:
    """Read every turn of a session in order: the sentences worth reading, each resolved
    (dates, corrections, pronouns), and the requests to forget and the text addressed to
    the memory system. Touches no page."""
    a = Analysis([], segmented.counts, segmented.tools, segmented.tool_errors, [])
    _READ_ONCE.clear()  # what was worked out of this session's turns, once each
    pending: list[Sentence] = []  # what the assistant just said, kept if the user accepts it
    worked: list[Sentence] = []  # the sums it just worked out, checked: kept if let stand
    specific: list[Sentence] = []  # its specific statements, kept if the user credits them
    requested = False  # the user asked the assistant to work something out (`_WORK_OUT`)
    answers: list[Sentence] = []  # its answer's sentences to what the user asked (`_answers`)
    from_tool = False  # what the assistant just said answers the user from a tool's result
    stated = False  # the assistant's last turn asked no question
    asked: Turn | None = None  # the assistant's last turn, when it ends on its one question
    previous: list[Sentence] = []  # the last user turn's sentences: what "forget that" means
    context = Context(directory)
    context.date_order = segmented.date_order
    context.restated = restated_dates(segmented.turns, context.restated_elsewhere)
    context.restated_people = restated_people(segmented.turns)
    context.confirmed_people = confirmed_people(segmented.turns)
    context.figures = confirmed(  # "£22.50" as the assistant confirms a bare "22.50"
        [x for t in segmented.turns if t.kind == "assistant" for x in t.sentences],
        [x for t in segmented.turns for x in t.sentences],
    )
    dropped: list[str] = []  # what the user asked to forget
    questioned = False  # the assistant's last turn ended on a question
    results: list[Record] = []  # the records of the tool result just before
    read_paste = False  # the user's last message pasted a block (a log, a config)
    pasted = ""  # that message, as written
    paste_read = False  # the assistant's last turn read out what it pasted, asked to
    read_shown = False  # it showed a picture or a file and asked what it says
    asked_for = ""  # the user's last message: what a tool's records may answer
    told: list[Said] = []  # the user's own sentences so far: what "the last two" counts
    shown: list[Turn] = []  # the assistant's last two turns: the lists the user may point at
    choices: dict[str, Sentence] = {}  # the choices of two made in this session, by label
    heard: list[str] = []  # the user's messages since the assistant's last turn
    earlier_words: set[str] = set()  # the words of the user's messages before those
    earlier_figures: set[str] = set()  # and their figures (spelled out too: "nine two")
    memory_words: tuple[int, set[str]] = (-1, set())  # (directory's version, its words)
    checks: list[str] = []  # the assistant's restatement asked as a question ("…, right?")
    marks = (0, 0, 0)  # what was taken back before them: a.withheld, dropped, a.forget
    recap: list[str] = []  # the assistant's restatement of them, kept if the user lets it
    recap_turn: Turn | None = None
    recapped_found: list[Sentence] = []  # findings the recap says again, read with it
    recap_since = heard_since = 0  # where in a.sentences the messages it restates begin
    # an aside that ends its message with nothing after it ("Off the record:" sent alone)
    # covers the user's next message
    aside_carried = False
    for turn in segmented.turns:
        a.ignored.extend(turn.addressed)
        if turn.kind == "tool_result":
            results += [Record(ln, v) for ln, v in zip(turn.sentences, turn.records, strict=True)]
            continue
        if turn.kind == "assistant":
            shown = [*shown, turn][-2:]
            took_back = [
                *(raw for _, raw in a.withheld[marks[0] :]),
                *dropped[marks[1] :],
                *a.forget[marks[2] :],
            ]
            # a name the user said earlier in the session, or one memory knows (a page's, or
            # on a line of what is upcoming), is theirs too
            if directory.version != memory_words[0]:  # (read again when the directory changed)
                memory_words = (
                    directory.version,
                    words_of(
                        " ".join(
                            [
                                *directory.known_person_names(),
                                *(n for kind in directory.others.values() for n in kind.values()),
                                *(line for line, _ in directory.remembered_dates),
                            ]
                        )
                    ),
                )
            names = earlier_words | memory_words[1]
            read = heard_of(heard)  # (read once: for both recaps and for what was heard)
            held = directory.in_memory  # a code or name an earlier session's line gives
            recap = recapped(
                turn, heard, took_back, names, figures=earlier_figures, read=read, held=held
            )
            recap_turn = turn
            asks = any(x.endswith("?") for x in turn.sentences)
            checks = (
                recapped(
                    turn,
                    heard,
                    took_back,
                    names,
                    checks=True,
                    figures=earlier_figures,
                    read=read,
                    held=held,
                )
                if asks
                else []
            )
            earlier_words |= read.words
            earlier_figures |= read.digits
            recap_since, heard_since = heard_since, len(a.sentences)
            heard, marks = [], (len(a.withheld), len(dropped), len(a.forget))

            def kept_values() -> set[tuple[str, str]]:
                return _values_of(a.sentences)

            pending = findings(turn, directory, given=kept_values)
            # a sum it worked out in front of the user ("£1,425 × 12 ÷ 52 = £328.85"), checked
            # (`sums.py`): kept when the user's next message lets it stand
            worked = [finding(r, turn, directory) for r in turn.sentences if checked_sums(r)]
            if len(shown) == 2:
                # the assistant putting right a figure it gave before ("£1,029, not £1,092"):
                # what it gives now is what it found
                known = {s.text for s in pending}
                pending += [
                    finding(r, turn, directory)
                    for r in turn.sentences
                    if (pair := values_contrasted(r)) is not None
                    and holds_value(shown[0].message, pair[1])
                    and r not in known
                ]
            if results and turn.after_tool:
                # the records the assistant reported, or that the user's question named
                used = used_by(results, " ".join(turn.sentences), asked_for)
                pending += record_findings([r.line for r in used], turn.time, directory)
            results = []
            specific = (
                [] if pending else findings(turn, directory, specific=True, given=kept_values)
            )
            # the user asked to work something out ("can you work out the dates?"): a plain
            # "perfect" to the answer takes up what it found
            requested = bool(_WORK_OUT.search(asked_for))
            # the user asked something ("when is the council tax due?"): the answer's
            # sentences that say a day, a time or a sum of what was asked, which a thanks
            # takes up
            answers = (
                _answers(specific, asked_for, a.sentences) if _QUESTION.search(asked_for) else []
            )
            from_tool = turn.after_tool
            if read_paste and _ASKED.search(asked_for):
                # the user pasted a log or a config and asked about it: what the answer reads
                # out of it (a host, a port, a version) is found, like a tool's result
                # (not what gives only figures the session's lines give: the paste was read)
                known = {s.text for s in pending}
                given = _figures_of(a.sentences)
                pending += [
                    s
                    for s in (
                        specific or findings(turn, directory, specific=True, given=kept_values)
                    )
                    if s.text not in known and not _only_given(s, given)
                ]
                specific = []
            paste_read = read_paste and bool(_ASKED.search(asked_for))
            read_paste = False
            if read_shown:
                # the user showed a picture or a file only the assistant sees and asked what
                # it says: the assistant's reading of it is what it holds, found like a
                # tool's result (kept unless the user turns it down)
                known = {s.text for s in pending}
                pending += [s for s in findings(turn, directory, shown=True) if s.text not in known]
                specific, from_tool = [], True
            read_shown = False
            # a turn that only states (asks nothing): a bare "yes" after it confirms it
            stated = bool(turn.sentences) and not turn.sentences[-1].endswith("?")
            questions = [r for r in turn.sentences if r.endswith("?")]
            asked = turn if len(questions) == 1 and turn.sentences[-1] == questions[0] else None
            questioned = bool(turn.sentences) and not stated
            continue
        if turn.kind != "user":
            continue
        own = turn.sentences
        asked_for, results = " ".join(own), []
        read_paste = turn.pasted_block
        pasted = turn.message
        read_shown = turn.shown and bool(_ASKED.search(asked_for) or _READ.search(asked_for))
        heard.append(turn.message or " ".join(own))
        offers = [s for s in pending if is_proposal(s)]
        if offers and own and turn.speaker is None and (counter := countered(own[0], offers)):
            # "make it £500": what was proposed, with the user's value, is taken up
            i, text, said_also = counter
            pending[pending.index(offers[i])] = finding(text, turn, directory, proposal=True)
            for s in pending:
                s.time = offers[i].time
                s.kinds.append("accepted")
            a.sentences.extend(pending)
            also = [said_also[:1].upper() + said_also[1:]] if len(said_also.split()) >= 3 else []
            own = also + own[1:]
            pending = []
        if (
            pending and own and (lang.accepts(own[0]) or (from_tool and not lang.rejects(own[0])))
        ):  # accepted, or what a tool returned and the user did not turn down
            # what restates the user's own message is read as the recap (in the user's
            # voice, with its days); the rest is kept as found
            found = [s for s in pending if not any(_as_said(s.text) in r for r in recap)]
            if len(found) == len(pending):
                recap = []  # what it said is kept as found
            if lang.accepts(own[0]):
                for s in pending:
                    s.kinds.append("accepted")
            a.sentences.extend(found)
            recapped_found = [s for s in pending if s not in found]
        elif (
            specific
            and own
            and (
                lang.credits(own[0])
                # "ah ok. I cleared them and it ran fine.": credit after a word of taking it in,
                # or after a yes ("Yep, it was at 98%. Pruned them and the job ran fine.")
                or (
                    len(own) > 1
                    and (_TAKEN_IN.match(own[0]) or lang.accepts(own[0]))
                    and not lang.rejects(own[0])
                    and lang.credits(own[1])
                )
                or (stated and lang.confirms(own[0]))
                or (requested and lang.accepts(own[0]) and not lang.rejects(own[0]))
            )
        ):
            for s in specific:
                s.kinds.append("accepted")
            a.sentences.extend(specific)  # "good catch": what it said is what it found
        elif answers and own and lang.accepts(own[0]) and not lang.rejects(own[0]):
            for s in answers:  # "When is it due?" … "great, thanks": the answer is found
                s.kinds.append("accepted")
            a.sentences.extend(answers)
        if worked and lets_stand(own):
            kept_texts = {s.text for s in a.sentences}
            a.sentences.extend(s for s in worked if s.text not in kept_texts)
        pending, specific, answers, worked = [], [], [], []
        if checks and own and turn.speaker is None and lang.accepts(own[0]):
            recap = [*recap, *checks]  # "Ines swims on Tuesdays, right?" / "yes"
        checks = []
        before = {id(s) for s in a.sentences}
        if (
            recap
            and recap_turn is not None
            and turn.speaker is None
            and (recap := standing(own, recap, recap_turn.message))
        ):
            let_go = asked_off(own) or []
            _read_recap(a, recap_turn, recap, directory, context, recap_since, let_go)
        recap = []
        if recapped_found:
            # a finding the recap was to say in the user's voice and did not is kept as found
            new = [s for s in a.sentences if id(s) not in before]
            a.sentences.extend(s for s in recapped_found if not _said_by(s, new))
            recapped_found = []
        # "No, Saturday." after the assistant's question answers it: it corrects nothing the
        # user said before
        said_before = [] if questioned else previous
        questioned = False
        # "Is your train on Tuesday?" / "yes": the pair says what neither does alone
        if (
            asked is not None
            and own
            and turn.speaker is None
            and (said := answered(asked.sentences[-1], own[0], asked.options))
        ):
            own = [said, *own[1:]]
            turn.answers.add(said)
        elif (
            asked is not None
            and own
            and turn.speaker is None
            and (parts := answered_parts(asked.sentences[-1], own))
        ):  # "Which school, and when does term start?" / "St Brendan's. monday"
            own = [*parts, *own]  # the reply's own words are read as well
            turn.answers.update(parts)
        asked = None
        current: list[Sentence] = []
        forgetting = False  # the sentence before asked to forget
        explaining = False  # the sentence before took back statements by where they were said
        # an aside said before it ("off the record: …") covers this sentence
        aside, aside_carried = aside_carried and turn.speaker is None, False
        confided = ""  # so does someone else's said before it (its words)
        for raw in own:
            if ADDRESSED.search(raw):
                a.ignored.append(raw)
                continue
            if turn.speaker is None and raw not in turn.pasted and not _ITEM_LABEL.match(raw):
                # "Off the record: …", "don't save this next bit": what follows, to the end of
                # the message or "back on the record", is not kept
                if aside and (resumed := lang.aside_ends(raw)) is not None:
                    aside = False  # "back on the record: the party is at 7" keeps the party
                    if resumed.strip():
                        if raw in turn.pieces:
                            turn.pieces.add(resumed)
                        _read(a, turn, resumed, directory, context, current, said_before)
                    continue
                elif aside:
                    a.forgotten += 1
                    dropped.append(raw)
                    a.withheld.append((turn.time, raw))
                    continue
                elif (covered := lang.aside_ahead(raw, first=raw == own[0])) is not None:
                    aside = True
                    # said alone, looking ahead by its colon, dash or dots ("Off the
                    # record:"), not a stop ("Off the record." may be about what came before)
                    aside_carried = (
                        raw == own[-1]
                        and not covered.strip()
                        and raw.rstrip().endswith((":", "...", "…", "—", "–", "-"))
                    )
                    if covered.strip():
                        a.forgotten += 1
                        dropped.append(covered)
                    a.withheld.append((turn.time, raw))
                    continue
            body = _unlabelled(raw)
            if confided and (
                turn.speaker is not None
                or (raw in turn.pasted and body == raw and _same_line(turn.message, confided, raw))
            ):
                # the rest of a message whose writer confided something: not kept either
                confided = raw
                a.forgotten += 1
                dropped.append(raw)
                a.withheld.append((turn.time, raw))
                continue
            confided = ""
            if (body != raw or turn.speaker is not None or raw in turn.pasted) and (
                covered := lang.aside_ahead(body, first=False)
            ):
                # a confidence said in a thread or on a pasted chat's line ("19:12 From Dev to
                # Me: between you and me I'm stepping down"): a careful note-taker keeps it
                # out, to the end of that person's message (the next line that says whose it
                # is, in a paste)
                confided = body
                a.forgotten += 1
                dropped.append(covered)
                a.withheld.append((turn.time, raw))
                continue
            spoken = message_date(turn.time)
            if (named := named_conversation(raw, spoken)) is not None and _forget_earlier(
                a,
                turn,
                raw,
                named,
                own[: own.index(raw)],
                context,
                directory,
                raw == own[-1] and _taken_back_next(segmented.turns, turn),
            ):
                forgetting = True
                continue
            if explaining and EXPLAINS.match(raw):
                continue  # "Forget the last two things I said. Neither is mine to share."
            explaining = False
            if (
                turn.speaker is None
                and raw not in turn.pasted
                and _pointing(
                    a,
                    turn,
                    raw,
                    shown,
                    told,
                    choices,
                    dropped,
                    (directory, context, current, said_before, previous),
                )
                is not None
            ):  # "delete the second point", "in 4 it's Friday", "the latter" (enumerations.py)
                continue
            # "Ah, forget it. I'll sort it myself.", "never mind, forget it, too dear": a task
            # given up, neither a request to forget nor a withdrawal of what was said
            nxt = own.index(raw) + 1
            dismissed = lang.dismisses(raw, own[nxt] if nxt < len(own) else "")
            if not dismissed and raw == own[0] and turn.speaker is None:
                # "nah forget it" answering the assistant's offer ("Shall I book somewhere?")
                dismissed = _declines(segmented.turns, turn, raw, own[1:])
            if (
                turn.speaker is None
                and raw not in turn.pasted
                and not _ITEM_LABEL.match(raw)
                and not dismissed
                and (
                    taken := _by_position(
                        a,
                        turn,
                        raw,
                        own,
                        told,
                        previous,
                        current,
                        dropped,
                        (segmented.turns, turn) if raw == own[-1] else None,
                    )  # fmt: skip
                )
            ):
                # what follows a forget by position may only say why; a withdrawal is followed
                # by what holds instead ("Mine is this one:"), which is read
                explaining = forgetting = taken == "position"
                if taken == "withdrawal" and (rest := besides(raw)) is not None:
                    _read(a, turn, rest, directory, context, current, said_before)
                elif taken == "position" and (rest := said_instead(raw)) is not None:
                    # "scrap that last bit, we're the Owls now": what holds instead is read
                    _read(a, turn, rest, directory, context, current, said_before)
                continue
            request = lang.forget_request(raw)
            if (
                request is not None
                and request[1]
                and lang.polish_request(raw)
                and (name := lang.declined_name(request[1], directory.known_person_names()))
            ):
                request = (request[0], name)  # "Zapomnij o Tomie Reyesie": Tom Reyes
            if request == (True, None) and dismissed:
                request = None
            if request is None and raw == own[0] and _offered(segmented.turns, turn, raw):
                request = (True, None)  # "Should I forget that?" "yes please": "forget that"
            if request is None and (name := lang.name_let_go(raw)) is not None:
                # "Delete Ines completely": a person memory knows, or one the message goes on
                # to speak of as a person ("… I don't want her number kept"); not a program
                later = " ".join(own[own.index(raw) + 1 :])
                if directory.kind_of(name) is None and (
                    _known_person(name, directory) or _PERSONAL_PRONOUN.search(later)
                ):
                    request = (True, name)
            if (
                request is None
                and turn.speaker is None
                and raw not in turn.pasted
                and (datum := lang.datum_let_go(raw)) is not None
                and not _editing(segmented.turns, turn)
            ):
                # "Delete my address.": a detail of the user's own, asked of memory where no
                # document is being edited in the conversation
                request = (True, datum)
            if (
                request is None
                and turn.speaker is None
                and raw not in turn.pasted
                and (roles := lang.role_names_not_kept(raw))
                and (by_role := _named_by_role(roles, segmented.turns, turn))
            ):
                # "please don't keep the client's name": the names the conversation gives the
                # part ("Client: Ada Quist"), each let go as "don't keep his name" lets go
                so_far = segmented.turns[: _place(segmented.turns, turn, equal=True) + 1]
                for name in by_role:
                    _forget(
                        a, turn, raw, name, previous, current, dropped, False, directory,
                        False, so_far, False, False, True,
                    )  # fmt: skip
                continue
            bare_at = -1
            if (
                request in (None, (True, None))
                and turn.speaker is None
                and raw not in turn.pasted
                and (bare := lang.bare_forget(raw)) is not None
                and not _answers_assistant(segmented.turns, turn, raw, bare[0])
                and all(
                    " " in one or _known_person(one, directory) or any(one in x.raw for x in told)
                    for one in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", bare[0])
                )
            ):
                # "Forget the plumber.", "you can forget Bea now": the thing named, the request
                # all that is said of it (a name only of someone memory or the session knows)
                request, bare_at = (True, bare[0]), bare[1]
            of_whom = False
            if request is not None and request[1] and lang.PRONOUN_TARGET.fullmatch(request[1]):
                whom = _whom(own[: own.index(raw)], raw, request[1], context, directory)
                if whom is None:  # a wrong person's lines are worse than none removed
                    a.not_acted.append((raw, f"could not tell whom '{request[1]}' means"))
                    continue
                request = (True, whom)
            if request is not None and (clause := lang.forgets_clause(raw)) is not None:
                request = _said_of_whom(own[: own.index(raw)], raw, clause, context, directory)
                if request is None:  # a wrong person's lines are worse than none removed
                    a.not_acted.append((raw, f"could not tell whom '{clause[0]}' means"))
                    continue
                of_whom = clause[0].lower() not in ("i", "we")
            # "the bit about Nina and the overdraft … I'd rather it wasn't written down": "it"
            # is the thing the message named as said, not everything said before
            if (
                request is not None
                and request[1] is None
                and (pointed := _pointed_at(own[: own.index(raw)], raw)) is not None
            ):
                request = (True, pointed)
            if request is not None and not _says_instead(raw):
                kept = _clauses_before(raw) if request[1] is None else None
                forgetting = _forget(
                    a, turn, raw, request[1], previous, current, dropped, bool(kept), directory,
                    of_whom, segmented.turns[: _place(segmented.turns, turn, equal=True) + 1],
                    raw == own[-1] and _taken_back_next(segmented.turns, turn), bare_at >= 0,
                    lang.NAME_NOT_KEPT.search(raw) is not None and request[1] is not None,
                )  # fmt: skip
                of_whom = False
                if forgetting and bare_at > 0 and (said := raw[:bare_at].strip(" ,;:—–")):
                    # "Don't forget the rota, but forget the plumber.": the clause before the
                    # request is read as said
                    said = re.sub(r"[\s,]+(?:but|and|then|so|just)$", "", said, flags=re.I)
                    if raw in turn.pieces:
                        turn.pieces.add(said)
                    _read(a, turn, said, directory, context, current, said_before)
                if forgetting and kept:
                    # the clause taken back and the request leave the record; the rest stays
                    a.withheld.append((turn.time, raw[raw.index(kept) + len(kept) :].strip()))
                    if raw in turn.pieces:
                        turn.pieces.add(kept)
                    _read(a, turn, kept, directory, context, current, said_before)
                if forgetting and request[1] is None and (after := _said_after(raw)):
                    # "That was a joke, he's staying put": what holds instead is said after it
                    _read(a, turn, after, directory, context, current, said_before)
                continue
            if forgetting and _GOES_ON.match(raw):
                # "Forget what I said about Jonas. That was told to me in confidence."
                a.forgotten += 1
                continue
            forgetting = False
            n = len(a.sentences)
            _read(a, turn, raw, directory, context, current, said_before)
            if turn.speaker is None:
                told.append(Said(turn.time, raw, states(raw), a.sentences[n:]))
                if not raw.rstrip().endswith("?") and "?]" not in raw:
                    _settle_guesses(a, raw, a.sentences[n:], directory, context, current)
            _taken_off(a, turn, raw, directory, current)
        _relisted(a, turn, directory, current)
        previous = current
    if worked:  # the session ends on a sum the assistant worked out: it stands
        kept_texts = {s.text for s in a.sentences}
        a.sentences.extend(s for s in worked if s.text not in kept_texts)
    ends_on_found: list[Sentence] | None = None
    if pending and from_tool and _ASKED.search(asked_for):
        # the session ends on the assistant's answer from a tool to what the user asked:
        # what it read out for them is kept as found, as it would be had the user gone on
        a.sentences.extend(pending)
    elif requested and (pending or specific) and last_turn_kind(segmented) == "assistant":
        # or on its answer to what the user asked it to work out ("can you redo it?"): what
        # it worked out is kept, as it would be had the user gone on
        ends_on_found = pending or specific
    if ends_on_found is not None:  # (beside the recap of the rest, which it says too)
        # (what of it restates the user's own message is read as the recap, in the user's
        # voice, as a reply accepting it would have it)
        restating = [s for s in ends_on_found if any(_as_said(s.text) in r for r in recap)]
        a.sentences.extend(s for s in ends_on_found if s not in restating)
        if recap and recap_turn is not None:
            before = {id(s) for s in a.sentences}
            _read_recap(a, recap_turn, recap, directory, context, recap_since)
            # a finding the recap was to say in the user's voice and did not is kept as found
            new = [s for s in a.sentences if id(s) not in before]
            a.sentences.extend(s for s in restating if not _said_by(s, new))
        else:
            a.sentences.extend(restating)
    elif not (pending and from_tool and _ASKED.search(asked_for)):
        before = {id(s) for s in a.sentences}
        if recap and recap_turn is not None:  # the session ends on a recap: it standing
            _read_recap(a, recap_turn, recap, directory, context, recap_since)
        last = next((t for t in reversed(segmented.turns) if t.kind in ("user", "assistant")), None)
        if (
            paste_read
            and _ASKED.search(asked_for)
            and recap_turn is not None
            and last is recap_turn
        ):
            # or on its answer to what the user asked of a block they pasted: what it read
            # out of it is kept as found, beside what its recap said in the user's voice
            pending = read_out(recap_turn, pasted, directory)
            # (not what it says of itself or of the keeping, "I won't keep the code", nor
            # what gives only figures a line of the session gives: the block read already)
            new = [s for s in a.sentences if id(s) not in before]
            given = _figures_of(a.sentences)
            a.sentences.extend(
                s
                for s in pending
                if not _said_by(s, new)
                and not voiced(s.raw or s.text)
                # (unaccepted, a reading that only repeats the block's figures adds nothing)
                and not _only_given(s, given, words=False)
            )
    a.opening = _opening(a.sentences, dropped)
    link_known_names(a.sentences, directory)
    for s in a.sentences:
        s.statement = s.statement or restate(s)
    _READ_ONCE.clear()  # no text read stays past the session
    return a


#: A message that asks for something a tool can look up: a question, or "find", "look up",
#: "check" said to the assistant.
_ASKED = re.compile(
    r"\?|\b(?:find|look\s+up|look\s+for|search|check|tell\s+me|what|when|where|which|how)\b",
    re.I,
)


#: A message that asks the assistant a question: a question mark, or "check when …".
_QUESTION = re.compile(r"\?|\b(?:check|look\s+up|find\s+out)\b", re.I)
#: What a sentence answering "when" or "how much" says: a day, a time or a sum.
_ANSWER_VALUE = re.compile(
    r"\d{4}-\d{2}-\d{2}|\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\b\d{1,2}:\d{2}\b|[£$€]\s?\d", re.I
)


def _answers(specific: list[Sentence], asked: str, kept: list[Sentence]) -> list[Sentence]:
    """The sentences of an answer that say a day, a time or a sum (written resolved) of the
    thing the user's question named (a content word of the question said again), at most
    two: "Your council tax instalment of £148 is due on 1 April" of "when is the council tax
    due?". Not a list of suggestions: a sentence naming nothing of the question is not it;
    nor one whose every day, time and sum a line `kept` gives already (the user's own
    words said back: a later change would find two lines to replace)."""
    asked_words = content_words(asked)
    given = " ".join(s.text for s in kept)
    out = [
        s
        for s in specific
        if (values := _ANSWER_VALUE.findall(s.text))
        and content_words(s.raw or s.text) & asked_words
        and not all(v in given for v in values)
    ]
    return out[:2]


def last_turn_kind(segmented: Segmented) -> str | None:
    """Who spoke last in the session: "user" or "assistant" (None when neither did)."""
    last = next((t for t in reversed(segmented.turns) if t.kind in ("user", "assistant")), None)
    return last.kind if last else None


#: A request to work something out for the user: "can you work out what those are",
#: "convert these to dates", "figure out when".
_WORK_OUT = re.compile(
    r"\b(?:work\s+(?:it\s+|them\s+|that\s+|those\s+)?out|figure\s+(?:it\s+|them\s+)?out|"
    r"convert|calculate|re-?calculate|translate|find\s+out|look\s+up|re-?do\s+(?:it|that|them))\b",
    re.I,
)
#: A request to read out what the user shows: "can you read it off", "transcribe this".
_READ = re.compile(
    r"\b(?:read|transcribe|type\s+(?:it|this|that)\s+(?:up|out)|copy\s+(?:it|this))\b", re.I
)
#: Markdown's strong emphasis, which an assistant puts on the day or the figure it found.
_EMPHASIS = re.compile(r"\*\*(?=\S)|(?<=\S)\*\*")
#: The most sentences of a reading of what the user showed kept as found.
_SHOWN_MOST = 12


#: A sentence that opens on what it is about: "About Tom's move — …", "Re the quote: …".
_ABOUT_OPENS = re.compile(
    r"^\W*(?:about|re|regarding|as\s+for)\s+(?P<what>[^,:;—–]+?)(?:\s*[,:;—–]|\s+-|\s*$)", re.I
)


def _pointed_at(earlier: list[str], raw: str) -> str | None:
    """What a request to forget "that" or "it" means when the request's own sentence, or a
    sentence of the message before it, names what was said as a thing ("One thing from
    Friday: the bit about Nina and the overdraft. … I'd rather it just wasn't written down"):
    that thing. None when nothing is named so: then "that" is what was just said."""
    m = lang.forget_that_at(raw)
    before = raw[: m.start()] if m is not None else raw
    if (what := lang.said_of(before)) is not None:
        return what
    if named := _ABOUT_OPENS.match(before):  # "About Tom's move - that was a joke"
        return named["what"]
    for text in reversed(earlier):
        if (what := lang.said_of(text)) is not None:
            return what
    return None


#: Function words of the other languages a forget request is read in, which open a sentence
#: capitalised and name nobody ("Et pour Claire, …", "En vergeet …").
_FOREIGN_OPENERS = {
    "Et", "Pour", "Mais", "Alors", "Und", "Aber", "Also", "Für", "Y", "Pero", "Para", "En",
    "Maar", "Voor", "Dus", "Ma", "Per", "Quindi", "Ah", "Oh", "Bon", "Bueno", "Nou", "Allora",
}  # fmt: skip


#: A capitalised word that may be a name: not one that opens a sentence with an object
#: pronoun after it ("Take her off …", "Drop him from …"), a verb said to the assistant.
_CAPITALISED = re.compile(
    r"\b(?<![.!?]\s)(?<!^)[A-Z][\w'’-]+|(?:^|(?<=[.!?]\s))[A-Z][\w'’-]++(?!\s+(?:him|her|them|me|us)\b)"
)


def _named_by_role(roles: list[str], turns: list[Turn], turn: Turn) -> list[str]:
    """The names a request not to keep the names of those said by their part ("don't keep
    the patient's name": `roles`) means: those the user's messages up to its `turn` give
    that part."""
    so_far = turns[: _place(turns, turn, equal=True) + 1]
    text = "\n".join(x for t in so_far if t.kind == "user" and not t.speaker for x in t.sentences)
    return [name for role in roles for name in lang.named_as(role, text)]


def _whom(
    earlier: list[str], raw: str, pronoun: str, context: Context, directory: Directory
) -> str | None:
    """Whom a request's "him" or "her" means. Looked for in its own sentence, then in the
    message's sentences before it (`earlier`): the last name memory knows ("Moss went to
    another family, so clear out everything about him"), else the one name said there (two
    unknown names: unsure). Then the person the sentences before point to. None when unsure:
    a wrong person's lines removed are worse than none."""
    at = raw.lower().rfind(pronoun.lower())
    asked = (
        lang.FOREIGN_FORGET_ABOUT.search(raw)
        or lang.FORGET_ABOUT.search(raw)
        or lang.NAME_NOT_KEPT.search(raw)
    )
    if asked is not None:
        at = asked.start()  # the request's own words ("Wipe whatever …") name no one
    by_name = lang.NAME_NOT_KEPT.search(raw) is not None  # "I don't want his name kept"
    names = [*directory.known_person_names()]
    names += [n for kind in directory.others.values() for n in kind.values()]
    cut = at if at >= 0 else len(raw)
    for before, whole in ((raw[:cut], raw), (" ".join(earlier),) * 2):
        best: tuple[int, str] | None = None
        for name in names:
            for m in re.finditer(rf"\b{re.escape(name)}\b", before):
                if best is None or m.start() > best[0]:
                    best = (m.start(), name)
        new = [
            m
            for m in _CAPITALISED.finditer(whole)
            if m.end() <= len(before)
            and m.group(0).lower() not in ENGLISH
            and m.group(0).lower() not in lang.WEEKDAYS
            and m.group(0).lower() not in lang.MONTHS
            and m.group(0) not in NOT_NAMES
            and m.group(0) not in _FOREIGN_OPENERS
            and not any(m.group(0) in n.split() for n in names)
        ]
        if by_name and new and (best is None or new[-1].start() > best[0]):
            # "his name" is the one named last: a new name said after the last one memory
            # knows ("Mr Ferreira told me about a boy, Kieran Doyle. I don't want his name
            # kept") is the name, with the names said right before it ("Kieran Doyle")
            last = new[-1]
            run = before[: last.end()]
            full = re.search(r"(?:\b[A-Z][\w'’-]+\s+){0,2}[A-Z][\w'’-]+$", run)
            words = [m.group(0) for m in new if full is not None and m.start() >= full.start()]
            return " ".join(words) if words else last.group(0)
        if best is not None:
            if by_name:
                # the whole name, as the person's page has it: "Ignatius" of "Ignatius
                # Ferreira" leaves no word of it behind
                title = directory.people.get(directory.person(best[1]), best[1])
                return title if best[1] in title.split() else best[1]
            return best[1]
        unknown = {m.group(0) for m in new}
        if len(unknown) > 1:
            # "Take that part out, Ravi asked us to, forget him": a word opening the sentence
            # that the word list holds ("Take") is no name beside one that is no word
            opening = {
                m.group(0)
                for m in new
                if (m.start() == 0 or whole[: m.start()].rstrip().endswith((".", "!", "?")))
                and common_word(m.group(0))
            }
            if len(unknown - opening) == 1:
                unknown -= opening
        if len(unknown) == 1:
            return unknown.pop()
        if unknown:
            return None
    gender = lang.PRONOUN_TARGET_GENDER.get(pronoun.lower())
    if gender is None:
        return None
    ref = referent(context, gender, exclude=set())
    if ref is None or ref not in directory.people:
        return None
    return context.form.get(ref, directory.people[ref])


def _said_of_whom(
    before: list[str], raw: str, clause: tuple[str, str], context: Context, directory: Directory
) -> tuple[bool, str] | None:
    """What "forget that she sleepwalks" asks: what is said ("sleepwalks") as it concerns whom the
    subject means ("Ines and sleepwalks"); the user's own ("forget that I smoke") is what is
    said alone. None when whom "she" means is not sure."""
    subject, said = clause
    if subject.lower() in ("i", "we"):
        return True, said
    if subject.lower() in ("he", "she", "they"):
        pronoun = {"he": "him", "she": "her", "they": "them"}[subject.lower()]
        asked = re.search(rf"\bthat\s+{subject}\b", raw, re.I)
        whom = _whom(before, raw[: asked.start()] if asked else raw, pronoun, context, directory)
        if whom is None or directory.person(whom) not in directory.people:
            return None
        return True, f"{whom} and {said}"
    return True, f"{subject} and {said}"


#: Where one clause of a sentence ends and the next begins.
_CLAUSE_BREAK = re.compile(r"\s*(?:[,;]\s*(?:(?:and|but|then|so)\s+)?|\s+(?:and|but|then)\s+)")
_TRAILING_JOIN = re.compile(r"(?:[\s,;]+|\s+(?:and|but|so|then|though))+$", re.I)


def _clauses_before(raw: str) -> str | None:
    """What a sentence says before the clause that "don't write that down" ends: in "the van
    comes at 8, the alarm code is 7390 but don't write that down" the request takes back
    the alarm code, not the van. None when the request follows a single clause (or opens
    the sentence): then it reaches back as "forget that" does."""
    m = lang.forget_that_at(raw)
    if m is None:
        return None
    before = _TRAILING_JOIN.sub("", raw[: m.start()])
    # the clause taken back opens on a subject of its own ("…, and the code is 7390"); what
    # goes on from the one before ("Jess is pregnant and hasn't told anyone yet", "…, due in
    # February, …") is the same clause, taken back with it
    breaks = [b for b in _CLAUSE_BREAK.finditer(before) if _SUBJECT_OPENS.match(before, b.end())]
    if not breaks:
        return None
    kept = before[: breaks[-1].start()].strip()
    return kept if content_words(kept) else None


#: A clause that opens on a subject of its own: a pronoun, a determiner, a name, a figure.
_SUBJECT_OPENS = re.compile(
    r"(?:(?-i:[A-Z])|\d|(?:i|you|he|she|it|we|they|there|the|a|an|my|our|your|his|her|their|"
    r"its|this|that|these|those|some|all|both|each|every|no)\b)",
    re.I,
)


def _said_after(raw: str) -> str | None:
    """What a sentence that takes back what was said as untrue says after it ("That was a
    joke, he's staying put" -> "he's staying put"); None when nothing of three words or
    more follows."""
    m = lang.UNTRUE.search(raw)
    if m is None:
        return None
    after = re.sub(r"^[\s,;:—–-]+(?:(?:and|but|so)\s+)?", "", raw[m.end() :]).strip()
    return after if len(after.split()) >= 3 and lang.forget_request(after) is None else None


#: A reader's guesses in brackets: "the [11th? 14th?]", "Rosie [Posie?]", "12.40 [12.10?]":
#: the word before it, when one guess alone is in it, is the other reading.
_GUESSES = re.compile(
    r"(?:(?P<before>[\w£$€.:'’-]{1,40})[ \t]*)?\[(?P<inside>[^\[\]\n?]{0,60}\?[^\[\]\n]{0,80})\]"
)


def _settled(raw: str, said: str) -> tuple[str, int]:
    """`raw` with each bracket of guesses that `said` (a later sentence of the user's)
    settles read as the one reading it says ("Dr [Vasquez? Velasquez?]" and "it's Dr
    Velasquez" -> "Dr Velasquez"), and how many it settled; a bracket of which it says none,
    or more than one, stays."""
    out, settled = raw, 0
    for m in reversed(list(_GUESSES.finditer(raw))):
        options = [o.strip(" ,;/") for o in re.split(r"\?|/|\bor\b", m["inside"])]
        options = [o for o in options if o]
        if not options or any(len(o.split()) > 3 for o in options):
            continue
        start = raw.index("[", m.start())
        if len(options) == 1 and m["before"]:
            options, start = [m["before"], options[0]], m.start()
        chosen = [o for o in options if re.search(rf"(?<![\w.]){re.escape(o)}(?!\w)", said, re.I)]
        if len(chosen) == 1:
            out = out[:start] + chosen[0] + out[m.end() :]
            settled += 1
    return out, settled


def _still_in(items: list[Sentence], sentences: list[Sentence]) -> Iterator[Sentence]:
    """The `items` still in `sentences` (the same sentence, or an equal one, as `in` finds),
    in order: read only when asked for, and by identity first, so that the sentences of a
    long message are not each compared with every sentence of the session."""
    ids = {id(t) for t in sentences}
    for t in items:
        if id(t) in ids or t in sentences:
            yield t


def _settle_guesses(
    a: Analysis,
    raw: str,
    made: list[Sentence],
    directory: Directory,
    context: Context,
    current: list[Sentence],
) -> None:
    """The lines of the session holding a reader's guesses in brackets that the user's
    sentence `raw` settles, read again with what it says (`_settled`): when it settles two
    or more at once ("It's 12.10, Dr Velasquez, and it's £47"), or one of a line it shares
    a word of substance with ("photo day is the 14th")."""
    found = []
    for i, t in enumerate(a.sentences):
        said = t.raw or t.text
        if "?]" not in said or t in made:
            continue
        fixed, n = _settled(said, raw)
        if n:
            found.append((i, t, fixed, n))
    if sum(n for *_, n in found) < 2:
        words = lang.content_words(raw)
        found = [
            f
            for f in found
            if words
            & lang.content_words(f[1].raw or f[1].text)
            - {
                w.lower()
                for o in _GUESSES.findall(f[1].raw or f[1].text)
                for w in re.findall(r"\w+", o[1])
            }
        ]
    for i, old, fixed, _ in found:
        speaker = None if old.speaker == "the user" else old.speaker
        new = read_sentence(
            old.time, fixed, message_date(old.time), directory, context, speaker=speaker
        )
        new.speaker, new.subject = old.speaker, new.subject or old.subject
        a.sentences[i] = new
        if old in current:
            current[current.index(old)] = new


def _reread(
    a: Analysis,
    current: list[Sentence],
    i: int,
    fixed: str,
    directory: Directory,
    context: Context,
) -> None:
    """Sentence `i` of the session read again as corrected (`fixed`), in its place."""
    old = a.sentences[i]
    new = read_sentence(old.time, fixed, message_date(old.time), directory, context)
    new.speaker, new.subject = old.speaker, new.subject or old.subject
    a.sentences[i] = new
    if old in current:
        current[current.index(old)] = new


def _says_instead(raw: str) -> bool:
    """A correction that says what holds instead ("Scratch that, it's the 14th": a value, a
    number, a day, a time or a name), not a request to forget ("scratch that, never mind")."""
    m = lang.CORRECTS_EARLIER.match(raw)
    return m is not None and lang.holds_value(raw[m.end() :])


#: What opens a line of a pasted chat or log before what was said: who, and maybe when and to
#: whom ("Dev: ", "[10:03] Dev: ", "19:12:48 From Ana Ruiz to Me (Direct Message): ").
_LINE_LABEL = re.compile(r"^[^.!?:]{0,60}(?::\d\d){0,2}[^.!?:]{0,60}:\s+")


def _unlabelled(raw: str) -> str:
    """A line without who said it, and when ("[10:03] Dev: between you and me …" -> "between
    you and me …"); the line itself when it opens on no such label."""
    m = _LINE_LABEL.match(raw)
    return raw[m.end() :] if m is not None else raw


def _same_line(message: str, before: str, raw: str) -> bool:
    """Whether `raw` follows the text `before` on the same line of `message` (a pasted
    person's line goes on; a new line, or text not found as said, is someone else's)."""
    if not before or not message:
        return False
    at = message.find(before[-40:])
    nxt = message.find(raw[:40], at) if at >= 0 else -1
    return at >= 0 and nxt >= 0 and "\n" not in message[at + len(before[-40:]) : nxt]


#: A pronoun that speaks of a person (not "it", nor "they", which a firm is called too).
_PERSONAL_PRONOUN = re.compile(r"\b(?:she|he|her|him|hers|his)\b", re.I)


#: An assistant's question about forgetting or keeping ("Are you sure?", "Shall I delete
#: it?"), which a take-back may answer; any other question is what a "keep it" answers.
_ASKS_ABOUT_FORGETTING = re.compile(
    r"\b(?:sure|forget|forgot|forgotten|delete|deleted|remove|removed|erase|keep|drop|undo)\b",
    re.I,
)


def _answers_assistant(turns: list[Turn], turn: Turn, raw: str, thing: str) -> bool:
    """Whether a request that only names a thing ("Forget the ferry.") answers the assistant's
    message just before it rather than asking memory to let the thing go: it opens the user's
    message and the assistant asked a question, or proposed something that names the thing
    ("I could book the ferry for you." "Forget the ferry.")."""
    at = _place(turns, turn)
    if at == 0 or turns[at - 1].kind != "assistant" or not turns[at - 1].sentences:
        return False
    if turn.sentences and raw != turn.sentences[0]:
        return False
    said = turns[at - 1].sentences
    if said[-1].rstrip().endswith("?") and not _ASKS_ABOUT_FORGETTING.search(said[-1]):
        return True
    words = content_words(thing)
    return any(content_words(x) & words and _PROPOSES.search(x) for x in said)


#: An assistant's sentence that proposes something: "I could book …", "how about …".
_PROPOSES = re.compile(
    r"\b(?:i\s+(?:could|can|'ll|will|would)|shall\s+i|should\s+i|how\s+about|what\s+about|"
    r"maybe|perhaps|you\s+(?:could|might|should)|why\s+not|let\s+me|i\s+suggest|"
    r"i(?:'d|\s+would)\s+(?:suggest|recommend))\b",
    re.I,
)


def _taken_back_next(turns: list[Turn], turn: Turn) -> bool:
    """Whether the user's next message, with only the assistant's replies between, opens by
    taking back a request to forget that ended this one ("Forget my passport." … "Actually,
    keep that."): the request is then not acted on. An assistant's question between that is
    not about forgetting is what such words answer ("Shall I book the train?" "Leave it.")."""
    at = _place(turns, turn)
    for nxt in turns[at + 1 :]:
        if nxt.kind == "user":
            return nxt.speaker is None and lang.takes_back(nxt.sentences)
        last = nxt.sentences[-1] if nxt.sentences else ""
        if nxt.kind == "assistant" and "?" in last and not _ASKS_ABOUT_FORGETTING.search(last):
            return False
    return False


def _forget(
    a: Analysis,
    turn: Turn,
    raw: str,
    what: str | None,
    previous: list[Sentence],
    current: list[Sentence],
    dropped: list[str],
    own_clause: bool = False,
    directory: Directory | None = None,
    of_whom: bool = False,
    so_far: list[Turn] | None = None,
    taken_back: bool = False,
    bare: bool = False,
    name_only: bool = False,
) -> bool:
    """A request to forget: "forget that" drops the statements just made (only its own
    sentence when that sentence holds a secret before it, only the clause before it when
    `own_clause`: the request ends a sentence of several clauses), "forget about X"
    drops this session's statements of X (also those that say it only as the assistant
    restated them, and those going on from them: `referred.py`, over the turns `so_far`)
    and asks the writer to forget X in memory. True when it was acted on."""
    if turn.speaker or _ITEM_LABEL.match(raw) or raw in turn.pasted:
        # a participant's line in a thread or a pasted note: not the user's request
        a.not_acted.append((raw, "said by someone else; nothing was removed"))
        return False
    at, withdrawn = _withdrawals(turn)
    later = at[raw] + 1 < len(turn.sentences)
    # "I was only kidding" takes back what was said, not the request
    untrue = what is None and lang.UNTRUE.search(raw) is not None
    # (a request naming only its thing is withdrawn only after it: "never mind the boiler"
    # and "don't forget the rota, but forget the boiler" are the request)
    if (not bare and at[raw] in withdrawn) or (withdrawn and max(withdrawn) > at[raw]):
        a.not_acted.append((raw, "withdrawn as it was made; nothing was removed"))
        return False
    if taken_back and not later:
        a.not_acted.append((raw, "taken back in the next message; nothing was removed"))
        return False
    if what is None and own_clause:
        a.forgotten += 1  # the clause before the request; the caller keeps the ones before it
        return True
    if what is None:  # "forget that": what was just said
        m = lang.forget_that_at(raw)
        if turn.secret_pasted:
            # "here's the log, it prints our key … don't keep it": the secret pasted, which
            # is never kept; what was said around it stays
            return True
        if m is not None and mask(raw[: m.start()])[1]:
            # "The root password is …, don't keep that": the secret said in the request's
            # own sentence, which is not kept; what was said before it stays
            return True
        if secret := [t for t in current if t.secrets]:
            # "The key safe is 5830. Don't hang on to it.": the sentence that held the
            # secret, not the rest of the message or the one before
            targets = secret
            current[:] = [t for t in current if not t.secrets]
        elif untrue and (said := [t for t in (current or previous) if t in a.sentences]):
            # "That was a joke": the statement said last, not the whole message before it
            targets = said[-1:]
            (current if current else previous).remove(said[-1])
        else:
            # what was just said: the last statement and those before it that it goes on from
            head = raw[: m.start()] if m is not None else ""
            says_own = len(content_words(head)) >= 3 or (
                len(head.split()) >= 3 and lang.has_verb(head)
            )
            if says_own and not lang.REGRETS_SAYING.match(head):
                # "I'm interviewing at Corvid on Friday, off the record": the request's own
                # sentence says what it takes back (it is not read); nothing said before
                targets = []
            elif (asked := _asked_just_before(turn, raw, so_far)) is not None:
                # "Is it normal that my dad forgets names? Don't keep that.": "that" is the
                # question just asked, never a statement made before it
                targets = [t for t in (current or previous) if (t.raw or t.text) == asked]
                previous[:] = [t for t in previous if t not in targets]
                current[:] = [t for t in current if t not in targets]
            else:
                # a word of thanks or assent ("Thanks.", "ok") says nothing to take back
                said = [t for t in previous if states(t.raw or t.text)]
                starts = len(said)
                # "Sorry, I didn't mean to tell you that." before the request only regrets
                # saying it: what it regrets is said before it
                regrets = [t for t in current if lang.REGRETS_SAYING.match(t.raw or t.text)]
                said += [t for t in current if states(t.raw or t.text) and t not in regrets]
                targets = _just_said(said, starts) + regrets  # the regret goes with the request
                previous[:] = [t for t in previous if t not in targets]
                current[:] = [t for t in current if t not in targets]
            # what was taken back and the request leave the session's record too
            a.withheld += [(t.time, t.raw or t.text) for t in targets] + [(turn.time, raw)]
        for t in targets:
            if t in a.sentences:
                a.sentences.remove(t)
                a.forgotten += 1
                dropped.append(t.text)
        return True
    if (owned := _OWNED.fullmatch(what)) is not None and re.fullmatch(NAME, owned["thing"]):
        of_whom = True  # "Ria's Ciara" (what Ria said of her): only where Ria is named
    persons, things = _targets(what, directory, of_whom)
    if directory is not None:
        # "forget about my sister", where the session or memory knows her as Noor: Noor (what
        # was said is gathered only for a kin word, once per request)
        told_: list[list[str]] = []

        def told() -> list[str]:
            if not told_:
                said = [t.raw or t.text for t in a.sentences]
                said += [
                    x
                    for t in so_far or ()
                    if t.kind == "user" and not t.speaker
                    for x in t.sentences
                ]
                told_.append(said)
            return told_[0]

        persons = tuple(_kin_person(p, raw, told, directory) or p for p in persons)
        things = [_kin_person(t, raw, told, directory) or t for t in things]
        owner = (
            re.fullmatch(r"(?P<kin>[a-z-]+)['’]s\s+(?P<thing>.+)", things[0]) if things else None
        )
        if (
            owner is not None
            and not persons
            and len(things) == 1
            and (name := _kin_person(owner["kin"], raw, told, directory)) is not None
        ):
            # "my sister's wedding": the wedding, as it concerns her (as "Noor's wedding")
            persons, things = (name,), [owner["thing"]]
    if len(things) == 1 and persons and lang.KIN.fullmatch(things[0]):
        # "the bit about her dad and Steph": someone named by kin and someone by name, the
        # thing said of both; her dad's other lines stay
        of_whom = True
    withheld: list[tuple[str, str]] = []
    for target in things:  # "about Ravi and the stairlift money": the money, as it is Ravi's
        a.forget.append(target)
        if name_only:
            a.forget_name_only.add(target)
        if persons:
            a.forget_concerning[target] = persons
        if of_whom:
            a.forget_of_whom.add(target)
        # a thing of a person's named by a short word ("Priya's dad") is still that word:
        # without it, every line naming the person would say it
        words = lang.thing_words(target) if persons else lang.forget_words(target)
        # what is said beyond the names ("sleepwalks" of "Ines and sleepwalks"): a sentence that
        # says it in a clause of its own keeps its other clauses
        thing = words - {w.lower() for w in re.findall(r"\b[A-Z][\w'’-]*", target)}
        thing -= {w for p in persons for w in content_words(p)}
        says = [t for t in a.sentences if words and _says(t.text, words, persons)]
        # "forget my address": the user's own address, not the venue's or a sister's
        datum = None if persons else lang.own_datum(target)
        if datum is not None:  # ("I live at …" says it without the word)
            says = [t for t in a.sentences if lang.own_datum_said(t.raw or t.text, datum, False)]
        pair = apart = None
        if len(words) == 1 and not persons and datum is None:
            one = next(iter(words))
            if (before := lang.named_with(target, one)) is not None and before not in words:
                pair = before
                says = [t for t in says if lang.says_with(t.text, before, one)]  # "car park"
        rival = lang.compound_named(target, words) if datum is None else None
        if rival is not None and not persons:
            says = [t for t in says if not lang.another_than(t.text, *rival)]  # "our garden"
        if len(words) == 1 and not persons and pair is None and datum is None:
            # "forget the van" where the van is said of its own too: "the van depot" is
            # another thing (said only so, it is what the request means)
            one = next(iter(words))
            alone = [
                t
                for t in says
                if not lang.only_compounded(t.text, one) and not lang.only_headed(t.text, one)
            ]
            if alone:
                says = alone
                apart = one
        if lang.OLD_VALUE.search(target):
            # "my old number": a value said as old, or memory holds as past; what is said of
            # the value that holds now stays
            says = [t for t in says if lang.OLD_VALUE.search(t.raw or t.text)]
        last = (
            None if persons or datum is not None else _head_said_whole(target, words, raw, so_far)
        )
        if last is not None:
            # the conversation named the thing whole: a line saying only some of its words
            # (not its last, the thing itself) is about something else
            a.forget_head[target] = last
            says = [t for t in says if mentions(said_forms(t.text), {last})]
        if of_whom and persons and (kin := lang.KIN.fullmatch(target)) is not None:
            # "her dad and Steph": a line whose "he" was read as the one the kin word names
            # ("Her dad Piotr …" / "He's moving in with Steph") says it of both
            meant = _kin_named(kin, a.sentences)
            says += [
                t
                for t in a.sentences
                if t not in says and t.pronoun_means in meant and names_any(t.text, persons)
            ]
        if of_whom:  # only where the person is named or is the one it is about
            says = [t for t in says if t.subject in persons or names_any(t.text, persons)]
        elif so_far and words:
            # what the session called it otherwise: the user's sentences the assistant's
            # restatement of the thing repeats, and those that go on from them
            # (the same thing asked again is read with one test, each text once; in the
            # same turn, found once)
            thing_key: tuple[object, ...] = (frozenset(words), tuple(persons), last, apart)
            thing_key += (pair, rival if not persons else None)
            test = _READ_ONCE.get(("test", *thing_key))
            if test is None:
                test = _READ_ONCE["test", *thing_key] = ThingTest(
                    words,
                    persons,
                    last,
                    apart=apart,
                    pair=(pair, next(iter(words))) if pair is not None else None,
                    rival=rival if not persons else None,
                )
            key = (id(so_far[-1]), len(so_far), *thing_key)
            if (others := _READ_ONCE.get(key)) is None:
                # (asked again in a later message, only the turns since are read)
                scan = _READ_ONCE.get(("so far", *thing_key))
                if scan is None:
                    scan = _READ_ONCE["so far", *thing_key] = ReferredSoFar(test)
                others = _READ_ONCE[key] = scan(so_far)
            says += [
                t
                for t in a.sentences
                if t not in says
                and (t.raw or t.text) in others
                and (
                    datum is None
                    or lang.own_datum_said(t.raw or t.text, datum, False)
                    # (one it refers to without naming it; not another date, another's)
                    or not (
                        lang.names_datum(t.raw or t.text, datum[0]) or _says(t.text, words, persons)
                    )
                )
            ]
        if says:
            a.forget_found.add(target)
        for t in says:
            a.forgotten += 1
            if thing and _without_clause(t, thing):
                continue
            if name_only and _without_name(t, target):
                continue  # "I don't want his name kept": the rest stands without it
            a.sentences.remove(t)
            dropped.append(t.text)
            # said in this session, it leaves the session's record as "forget that" does (a
            # sentence left with its other clauses stays there as said, and so do two
            # sentences read as one fact, as the second may say something else)
            if t.time and t.raw and len(split_sentences(t.raw)) == 1:
                withheld.append((t.time, t.raw))
    if withheld:
        a.withheld += [*dict.fromkeys(withheld), (turn.time, raw)]
    return True


#: What was worked out once of the session's turns, by what it was worked out for: the
#: sentences `referred` finds for a thing, and each turn's sentence positions and withdrawals
#: (a message that asks the same many times is read once; cleared for each session).
_READ_ONCE: dict[tuple[object, ...], Any] = {}


def _place(turns: list[Turn], turn: Turn, *, equal: bool = False) -> int:
    """The place of `turn` in the session's `turns`: of the first turn that is it (turns
    compare by value), or with `equal` of the first that is it or equal to it (as
    `list.index` finds). Looked up in an index of the turns made once for the session (by
    identity, and by what equal turns share), not found by a scan of the turns before it for
    each message that asks."""
    index = _READ_ONCE.get(("places", id(turns)))
    if index is None or index[0] is not turns or index[1] != len(turns):
        at: dict[int, int] = {}
        alike: dict[tuple[str, str, str], list[int]] = {}
        for n, t in enumerate(turns):
            at.setdefault(id(t), n)
            alike.setdefault((t.kind, t.time, t.message), []).append(n)
        index = _READ_ONCE["places", id(turns)] = (turns, len(turns), at, alike)
    i = index[2].get(id(turn))
    if i is None or turns[i] is not turn:  # (the list changed: found as said)
        return turns.index(turn) if equal else next(j for j, t in enumerate(turns) if t is turn)
    if equal:  # an equal turn before it is the one `list.index` finds
        for j in index[3][turn.kind, turn.time, turn.message]:
            if j >= i:
                break
            if turns[j] == turn:
                return j
    return i


def _withdrawals(turn: Turn) -> tuple[dict[str, int], frozenset[int]]:
    """Where each sentence of `turn` first stands, and the positions of the sentences that
    withdraw a request ("just kidding", "keep it"), in order: worked out once per turn."""
    key = ("withdrawals", id(turn), len(turn.sentences))
    if (done := _READ_ONCE.get(key)) is None:
        at: dict[str, int] = {}
        for i, x in enumerate(turn.sentences):
            at.setdefault(x, i)
        withdrawn = frozenset(
            i
            for i, x in enumerate(turn.sentences)
            if lang.WITHDRAWN.search(lang.UNTRUE.sub(" ", x))
        )
        done = _READ_ONCE[key] = (at, withdrawn)
    return done


def _kin_person(
    target: str, raw: str, said: Callable[[], list[str]], directory: Directory
) -> str | None:
    """The name of the one person the user's kin word `target` means ("sister" of "forget
    about my sister" -> "Noor"): given after the same kin word of the user's in the session
    ("my sister Noor …") or by the role of a people page memory holds ("Noor: the user's
    sister."). None when the request does not say it of the user's ("my", "our"), the word
    is no kin word, or no one or more than one person is known by it."""
    kin = lang.KIN.fullmatch(f"my {target}")
    if kin is None or kin.group("name") or kin.group("rel").lower() != target.lower():
        return None
    rel = target.lower()
    if not re.search(rf"\b(?:my|our)\s+{re.escape(target)}(?![\w-])", raw, re.I):
        return None  # "her sister", "Ana's sister": someone else's
    names = {
        m.group("name")
        for x in said()
        for m in lang.KIN.finditer(x)
        if m.group("name")
        and m.group("whose").lower() in ("my", "our")
        and m.group("rel").lower() == rel
    }
    names |= {
        directory.people[slug]
        for slug in directory.roles_known().get(("the user", rel), set())
        if slug in directory.people
    }
    # "Noor" said in the session and "Noor Haddad" of her page are one person
    firsts = {n.split()[0].lower() for n in names}
    if len(firsts) != 1:
        return None
    return max(names, key=len)


def _kin_named(kin: re.Match[str], said: list[Sentence]) -> set[str]:
    """The names the session gave the one a kin word means ("her dad" -> "Piotr" after "Her
    dad Piotr is …"): the same kin word, owned by the same word, with a name after it."""
    whose, rel = kin.group("whose").lower(), kin.group("rel").lower()
    return {
        m.group("name")
        for t in said
        for m in lang.KIN.finditer(t.raw or t.text)
        if m.group("name") and m.group("whose").lower() == whose and m.group("rel").lower() == rel
    }


def _head_said_whole(
    target: str, words: set[str], raw: str, so_far: list[Turn] | None
) -> str | None:
    """The last word of a thing a request names in several words ("the Italian restaurant" ->
    "restaurant") when a sentence of the conversation before the request, the user's or the
    assistant's, says all of them; None otherwise (then half of its words say it)."""
    if len(words) < 2 or not so_far:
        return None
    last = [w for w in re.findall(r"[\w'’-]+", target) if w.lower() in words]
    if not last:
        return None
    for turn in so_far:
        for x in turn.sentences:
            if x != raw and lang.concerns(x, words, ()):
                return last[-1].lower()
    return None


def _by_position(
    a: Analysis,
    turn: Turn,
    raw: str,
    own: list[str],
    said: list[Said],
    previous: list[Sentence],
    current: list[Sentence],
    dropped: list[str],
    next_of: tuple[list[Turn], Turn] | None = None,
) -> str | None:
    """A request that names what it takes back by where it was said (`positions.py`): "forget
    the last two things I said" drops those statements and, with the request, takes them out
    of the session's record; "ignore that, it was the wrong file" drops what was sent
    before as not meant (the record keeps it: it was said, only not meant). "position" or
    "withdrawal" when the sentence is such a request, acted on or not; None otherwise.
    `next_of` (the turns, this one): the request ends its message, and is not acted on when
    the user's next message takes it back (`_taken_back_next`)."""
    if lang.TAKEN_BACK.fullmatch(raw.strip()):
        return None  # "never mind, keep it": a request to forget taken back, nothing withdrawn
    pos = position(raw)
    if pos is None and not withdraws(raw):
        return None
    kind = "position" if pos is not None else "withdrawal"
    later = own[own.index(raw) + 1 :] if raw in own else []
    if any(lang.WITHDRAWN.search(x) for x in later):
        a.not_acted.append((raw, "withdrawn as it was made; nothing was removed"))
        return kind
    if next_of is not None and _taken_back_next(*next_of):
        a.not_acted.append((raw, "taken back in the next message; nothing was removed"))
        return kind
    targets = named(said, pos, turn.time) if pos is not None else withdrawn(said, turn.time, raw)
    if not targets:
        a.not_acted.append((raw, "could not tell which statements it means; nothing was removed"))
        return kind
    for x in targets:
        said.remove(x)
        for t in x.read:
            if t in a.sentences:
                a.sentences.remove(t)
                dropped.append(t.text)
            for line in (previous, current):
                if t in line:
                    line.remove(t)
        a.forgotten += 1
    if pos is not None:  # asked not to be kept: out of the session's record too
        a.withheld += [(x.time, x.raw) for x in targets] + [(turn.time, raw)]
    return kind


def _pointing(
    a: Analysis,
    turn: Turn,
    raw: str,
    shown: list[Turn],
    told: list[Said],
    choices: dict[str, Sentence],
    dropped: list[str],
    reading: tuple[Directory, Context, list[Sentence], list[Sentence], list[Sentence]],
) -> str | None:
    """A sentence that points at what the assistant listed in one of its last two turns
    (`enumerations.py`): "delete the second point" takes the user's statements the item
    restates out of memory and the session's record; "in 4 it's Friday the 30th" reads the
    statement item 4 restates with the new value instead; "the latter", "the cheaper one" is
    read as the choice of that item, in its words; "go with the other one" switches a choice
    of two. The action when it is one, acted on or not; None otherwise."""
    directory, context, current, said_before, previous = reading
    listing = next((t for t in reversed(shown) if t.lists), None)
    lists = listing.lists if listing is not None else []
    asked = listing is not None and (
        any(x.endswith("?") for x in listing.sentences) or any(e.inline for e in lists)
    )
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z])", raw)
    if len(parts) > 1:  # "Gym: the cheaper one. Piano: the former." said as one line
        each = [pointed(x, lists, asked=asked) for x in parts]
        if all(q is not None and q.action == "choose" for q in each):
            for x in parts:
                _pointing(a, turn, x, shown, told, choices, dropped, reading)
            return "choose"
    p = pointed(raw, lists, asked=asked)
    if p is None:
        return _entry_dropped(a, turn, raw, told, (previous, current), dropped)

    def read(text: str) -> list[Sentence]:
        n = len(a.sentences)
        _read(a, turn, text, directory, context, current, said_before)
        return a.sentences[n:]

    def unread(x: Said) -> None:
        for t in x.read:
            if t in a.sentences:
                a.sentences.remove(t)
            for line in (previous, current):
                if t in line:
                    line.remove(t)

    if p.action == "switch":
        before = [s for label, s in choices.items() if switched(s.raw or s.text, raw)]
        if len(before) == 1 and (new := switched(before[0].raw or before[0].text, raw)):
            if before[0] in a.sentences:
                a.sentences.remove(before[0])
            for label in [k for k, v in choices.items() if v is before[0]]:
                choices[label] = next(iter(read(new)), before[0])
        else:  # a choice of an earlier session: the writer switches the line that gave it
            for s in read(raw):
                s.switches = True
        return p.action
    enum = p.enumeration
    assert enum is not None and listing is not None
    if p.action == "choose":
        label = p.label or enum.label or ""
        made = read(choice(label, enum, p.items[0]))
        if made and label and len(enum.items) == 2:
            choices[label.lower()] = made[0]
        return p.action
    # the user's statements each item restates: those an item restates best, and clearly
    restated: dict[int, list[Said]] = {}
    for x in told:
        scores = [restates(item, x.raw) for item in enum.items]
        best = max(scores)
        if best >= 0.5 and scores.count(best) == 1:
            restated.setdefault(scores.index(best), []).append(x)
    targets = [x for i in p.items for x in restated.get(i, [])]
    # a sentence an item not named restates too says more than the item: not taken whole
    named = [enum.items[i] for i in p.items]
    others = [item for i, item in enumerate(enum.items) if i not in p.items]
    targets = [x for x in targets if not says_besides(x.raw, named, others)]
    if not targets:
        a.not_acted.append((raw, "no statement of the user's is restated by the item it names"))
        return p.action
    if p.action == "edit":
        x = targets[0]
        new_raw = edited(x.raw, p.value, p.old) if len(targets) == 1 else None
        if new_raw is None:
            a.not_acted.append((raw, "could not tell which value of the item it replaces"))
            return p.action
        unread(x)
        x.raw, x.read = new_raw, read(new_raw)
        return p.action
    for x in targets:
        told.remove(x)
        unread(x)
        dropped += [t.text for t in x.read]
        a.forgotten += 1
    items = {enum.items[i] for i in p.items}
    shown_said = [s for s in listing.sentences if any(s in i or i in s for i in items)]
    a.withheld += (
        [(x.time, x.raw) for x in targets]
        + [(listing.time, s) for s in shown_said]
        + [(turn.time, raw)]
    )
    return p.action


def _entry_dropped(
    a: Analysis,
    turn: Turn,
    raw: str,
    told: list[Said],
    lines: tuple[list[Sentence], list[Sentence]],
    dropped: list[str],
) -> str | None:
    """A request to forget one person's entry of a list the user wrote in this session
    ("don't keep anything about Priya's present", "take Milo off the list"): the one line
    of the list keyed by that person leaves memory (and, asked to be forgotten, the session's
    record), and nothing else of the list. "entry" when acted on; None when the sentence
    names no such entry, or two lines fit."""
    whose = whose_entry(raw)
    taken = [n for m in _TAKEN_OFF.finditer(raw) if (n := m["a"] or m["b"] or m["c"])]
    if not whose and not taken:
        return None
    request = lang.forget_request(raw)
    names = (whose if request is not None else []) + taken
    if not names:
        return None
    found: list[Said] = []
    for time in dict.fromkeys(x.time for x in told):
        said = [x for x in told if x.time == time]
        keyed = entries([x.raw for x in said])
        found += [said[i] for i, keys in keyed.items() if any(n in keys for n in names)]
    if len(found) != 1:
        return None
    x = found[0]
    told.remove(x)
    for t in x.read:
        if t in a.sentences:
            a.sentences.remove(t)
            dropped.append(t.text)
        for line in lines:
            if t in line:
                line.remove(t)
    a.forgotten += 1
    if request is not None:  # asked not to be kept ("take Milo off the list" asks no such thing)
        a.withheld += [(x.time, x.raw), (turn.time, raw)]
    return "entry"


def _targets(
    what: str, directory: Directory | None, of_whom: bool = False
) -> tuple[tuple[str, ...], list[str]]:
    """The persons and the things one request names ("about Ravi and the stairlift money":
    the money, as it concerns Ravi); no persons when it names only people or only things
    ("about Ana and Tom", "about the gym": each of them)."""
    named = lang.forget_targets(what)
    if (
        len(named) == 1
        and (m := _OWNED.fullmatch(named[0])) is not None
        and re.fullmatch(NAME, m["thing"])
    ):
        # "Ria's Ciara", as "what Ria said about Ciara" is read (`lang.forget_request`):
        # Ciara as Ria spoke of her, never the user's own lines about Ciara
        return (m["whose"],), [m["thing"]]
    # "Lou's promotion", "Gran's surgery": the thing, as it concerns the person it is said of
    owned = [
        m
        for t in named
        if (m := _OWNED.fullmatch(t)) is not None
        and directory is not None
        and _is_person(m["whose"], directory)
        and lang.thing_words(m["thing"])
    ]
    # "Karl losing his job", "Ana being ill": what is said of the person, as it concerns them
    owned += [
        m
        for t in named
        if (m := _DOING.fullmatch(t)) is not None
        and directory is not None
        and _is_person(m["whose"], directory)
    ]
    if owned and len(named) == 1 and not of_whom:
        # what is theirs is never a person of its own ("Priya's dad" is not every dad, nor
        # all of Priya): the thing, as it concerns its owner
        return (owned[0]["whose"],), [owned[0]["thing"]]
    persons = tuple(t for t in named if directory is not None and _is_person(t, directory))
    things = [t for t in named if t not in persons]
    if of_whom and len(named) == 2:  # "forget that she sleepwalks": the sleepwalking, as hers
        return (named[0],), named[1:]
    if not persons or not things:
        return (), named
    return persons, things


def _forget_earlier(
    a: Analysis,
    turn: Turn,
    raw: str,
    named: tuple[Earlier, str],
    before: list[str],
    context: Context,
    directory: Directory,
    taken_back: bool = False,
) -> bool:
    """A request to forget what an earlier conversation said ("scrap what I told you last
    Monday about the boat", `earlier.py`): recorded for the writer, which removes only the
    lines of that conversation's sessions. False when the sentence, its conversation's words
    taken out, asks nothing to be forgotten ("like I told you last time, …")."""
    when, rest = named
    request = lang.forget_request(rest)
    everything = asks_all(rest)
    if request is None and not everything:
        return False
    if turn.speaker or _ITEM_LABEL.match(raw) or raw in turn.pasted:
        a.not_acted.append((raw, "said by someone else; nothing was removed"))
        return True
    later = turn.sentences[turn.sentences.index(raw) + 1 :] if raw in turn.sentences else []
    if any(lang.WITHDRAWN.search(x) for x in [raw, *later]):
        a.not_acted.append((raw, "withdrawn as it was made; nothing was removed"))
        return True
    if taken_back:
        a.not_acted.append((raw, "taken back in the next message; nothing was removed"))
        return True
    what = None if everything or request is None else request[1]
    if what and lang.PRONOUN_TARGET.fullmatch(what):
        what = _whom(before, rest, what, context, directory)
        if what is None:
            a.not_acted.append((raw, "could not tell whom it means; nothing was removed"))
            return True
    if not when.resolved:
        a.not_acted.append(
            (raw, f"could not tell which conversation '{when.phrase}' means; nothing was removed")
        )
        return True
    persons, things = _targets(what, directory) if what else ((), [])
    a.forget_earlier.append(EarlierForget(raw, when, things, persons))
    if message_date(turn.time) in when.days:  # "earlier today": this session's lines too
        for t in [t for t in a.sentences if t.time[:10] == turn.time[:10]]:
            said = [content_words(x) for x in things]
            if not things or any(w and _says(t.text, w, persons) for w in said):
                a.sentences.remove(t)
                a.forgotten += 1
    return True


#: A sentence that opens on someone or something said before it: "She's due in May", "It
#: was his idea", "They told us on Friday".
_REFERS_BACK = re.compile(
    r"^\W*(?:(?:and|but|so|also|plus|oh|ah|wait|actually|um|well)[,\s]+)*(he|she|they|it|this|that|these|those|his|"
    r"her|their|its|him|them|which)\b",
    re.I,
)
#: A statement opened as a new matter ("Oh and …", "Also, …", "By the way …", "Another
#: thing: …"): what it says does not go on from the statement before it.
_NEW_MATTER = re.compile(
    r"^\W*(?:oh\s+and(?:\s+also)?|and\s+also|also|btw|by\s+the\s+way|another\s+thing|"
    r"one\s+more\s+thing|separately|on\s+another\s+note|unrelated(?:ly)?)\b",
    re.I,
)
#: A word that makes a new subject of someone's (his dad, her boss), not a pronoun for them.
_OWNER_WORD = re.compile(r"(?:his|her|their|its)$", re.I)


#: A bare yes: "yes", "yes please", "yeah, do", "please do", "go ahead".
_ASSENT = re.compile(
    r"\W*(?:(?:yes|yeah|yep|yup|sure|ok(?:ay)?|please)(?:[\s,!.]+|$))+"
    r"(?:(?:please\s+)?do(?:\s+that)?|go\s+ahead)?[\s!.]*",
    re.I,
)
#: The assistant offering to forget what was just said: "Should I forget that?", "Do you
#: want me to leave that out?", "Want me to delete that?".
_OFFER = re.compile(
    r"\b(?:should|shall)\s+i|\b(?:do\s+you\s+)?want\s+me\s+to|\bwould\s+you\s+like\s+me\s+to",
    re.I,
)


def _declines(turns: list[Turn], turn: Turn, raw: str, rest: list[str]) -> bool:
    """Whether `raw`, the first sentence of the user's message (`rest` its others), declines
    the offer or question that ends the assistant's message just before (`lang.declines_offer`)."""
    at = _place(turns, turn)
    if at == 0 or turns[at - 1].kind != "assistant" or not turns[at - 1].sentences:
        return False
    before = turns[at - 1].sentences[-1]
    return lang.declines_offer(raw, rest, before) or lang.rejects_suggestion(raw, rest, before)


def _offered(turns: list[Turn], turn: Turn, raw: str) -> bool:
    """Whether `raw`, the first sentence of the user's message, says yes to the assistant's
    offer, just before it, to forget what the user had said ("Should I forget that?")."""
    if not _ASSENT.fullmatch(raw):
        return False
    at = _place(turns, turn)
    if at == 0 or turns[at - 1].kind != "assistant":
        return False
    asked = turns[at - 1].sentences[-1] if turns[at - 1].sentences else ""
    m = _OFFER.search(asked)
    return (
        m is not None
        and asked.rstrip().endswith("?")
        and lang.forget_request(asked[m.end() :]) == (True, None)
    )


def _asked_just_before(turn: Turn, raw: str, so_far: list[Turn] | None) -> str | None:
    """The question said right before a "forget that" (the sentence before it in its
    message, or the last of the message before when it opens its own), None when what was
    said right before is no question."""
    at = turn.sentences.index(raw)
    if at:
        last = turn.sentences[at - 1]
    elif so_far and len(so_far) >= 2 and so_far[-2].sentences and so_far[-2].kind == "user":
        last = so_far[-2].sentences[-1]
    else:
        return None
    return last if last.rstrip().endswith("?") and not states(last) else None


def _just_said(said: list[Sentence], message_starts: int = 0) -> list[Sentence]:
    """What "forget that" takes back of `said` (the user's message before and this one so
    far, which starts at `message_starts`): its last statement, and the statements before it
    that the next one goes on from — it opens on "she", "it", "they" …, or shares a word, a
    person or a subject with it. "I booked the dentist for the 3rd. My sister is pregnant.
    Don't keep that." takes the sister's news and keeps the dentist; "My sister is pregnant.
    She's due in May. Don't keep that." takes both. Across the start of this message only
    a pronoun or a person goes on ("…is pregnant." / "she hasn't told anyone, don't keep
    that"): a word two statements share ("moved") does not make the message before,
    which may have been answered, part of what this one takes back. A statement opened as
    a new matter ("Oh and …", "By the way …") goes on from nothing before it, unless by a
    pronoun ("Also she …")."""
    if not said:
        return []
    chain = [said[-1]]
    for i in range(len(said) - 2, -1, -1):
        s, after = said[i], chain[0]
        across = i == message_starts - 1
        opens = _REFERS_BACK.match(after.raw or after.text)
        if across and opens and _OWNER_WORD.match(opens.group(1)):
            # "His dad cancelled on him again" after "Ravi has the dentist on Thursday":
            # someone else's news, not more of the message before
            opens = None
        if not opens and _NEW_MATTER.match(after.raw or after.text):
            # "Oh and my cousin's moving to Perth" after "my cousin's dentist is Monday": a
            # new matter, however much it shares with the one before
            break
        if (
            opens
            or (set(s.people) & set(after.people) and not across)
            or (
                not across
                and (
                    content_words(s.text) & content_words(after.text)
                    or (s.subject is not None and s.subject == after.subject)
                )
            )
        ):
            chain.insert(0, s)
        else:
            break
    return chain


def _without_clause(t: Sentence, thing: set[str]) -> bool:
    """Sentence `t` left with the clauses that do not say `thing` (its text and statement
    alike); False, and `t` unchanged, when no clause alone says it or what is left would
    not read as a statement."""
    left = [clause_left(x, thing) for x in (t.text, t.statement or t.text)]
    if any(x is None for x in left):
        return False
    t.text, statement = left  # type: ignore[assignment]
    if t.statement:
        t.statement = statement  # type: ignore[assignment]
    t.raw = clause_left(t.raw, thing) or t.text
    # a date said in the clause that went goes with it ("…, and the scan is on May 9")
    t.dates = [(phrase, day) for phrase, day in t.dates if phrase in t.text]
    if t.when is not None and t.when not in {day for _, day in t.dates}:
        t.when = t.dates[0][1] if t.dates else None
    return True


def _without_name(t: Sentence, name: str) -> bool:
    """Sentence `t` with a person's name taken out where the rest stands without it
    (`lang.without_name`, its text, statement and words as said alike); False, and `t`
    unchanged, when it does not."""
    left = [lang.without_name(x, name) for x in (t.text, t.statement or t.text, t.raw or t.text)]
    if any(x is None for x in left):
        return False
    t.text, statement, raw = left  # type: ignore[assignment]
    if t.statement:
        t.statement = statement  # type: ignore[assignment]
    if t.raw:
        t.raw = raw  # type: ignore[assignment]
    # nor is the line filed under the person any more (their page goes)
    parts = set(name.split())

    def theirs(n: str | None) -> bool:
        return n is not None and bool(parts & set(n.split()))

    t.people = [p for p in t.people if not theirs(p)]
    t.roles = [(n, r) for n, r in t.roles if not theirs(n)]
    if theirs(t.subject):
        t.subject = None
    if t.relation is not None and theirs(t.relation[1]):
        t.relation = None
    if theirs(t.pronoun_means):
        t.pronoun_means = None
    return True


#: A thing said of a person: "Lou's promotion", "Gran's surgery".
_OWNED = re.compile(rf"(?P<whose>{NAME}|[Mm]um|[Dd]ad)['’]s\s+(?P<thing>[^'’]+)")
#: A thing a person does or has done to them: "Karl losing his job", "Ana being ill".
_DOING = re.compile(rf"(?P<whose>{NAME}|[Mm]um|[Dd]ad)\s+(?P<thing>[a-z]+ing\b.*)")


def _says(text: str, words: set[str], persons: tuple[str, ...]) -> bool:
    """Whether a sentence says what a forget request names (`words`), as it concerns
    `persons` when the request named the thing with them."""
    # "lent" says "the loan", "Kim told me …" her news: of a person, only beside the person
    told = said_forms(text)
    if persons:
        return lang.concerns(text, words, persons) or (
            names_any(text, persons)
            and (
                lang.concerns(told, words, persons)
                # "Omar and the money": a sum said beside him ("he owes me £300") is it
                or says_sum(text, words)
            )
        )
    return mentions(told, words)


#: A document the user works on with the assistant, named: "the draft", "my CV", "this letter".
_A_DOCUMENT = re.compile(
    r"\b(?:draft|letter|cv|r[eé]sum[eé]|form|document|doc|essay|template|bio|flyer|invoice|"
    r"application|paragraph|section|slide|spreadsheet|signature|footer|header)s?\b",
    re.I,
)


def _editing(turns: list[Turn], turn: Turn) -> bool:
    """Whether a document is being edited in the conversation up to `turn`: a message of it
    (either side) pastes or writes out a text of several lines, or the user names a document
    ("my CV", "the letter"). A "delete my address" there edits the document, not memory.
    Worked out once per turn (a message asking many times is read once)."""
    key = ("editing", id(turns), id(turn))
    if (done := _READ_ONCE.get(key)) is None:
        done = _READ_ONCE[key] = _edited(turns, turn)
    return bool(done)


def _edited(turns: list[Turn], turn: Turn) -> bool:
    """`_editing`, worked out."""
    for t in turns[: _place(turns, turn, equal=True) + 1]:
        if t.kind not in ("user", "assistant"):
            continue
        lines = [ln for ln in t.message.splitlines() if ln.strip()]
        if t.pasted_block or t.pasted or len(lines) >= 3:
            return True
        if t.kind == "user" and _A_DOCUMENT.search(t.message):
            return True
    return False


def _known_person(name: str, directory: Directory) -> bool:
    """Whether memory knows `name` as a person's (a person page, or a name on one)."""
    return name in directory.known_person_names() or person_slug(name) in directory.people


def _is_person(name: str, directory: Directory) -> bool:
    """Whether a forget request's target is a person memory knows ("Ravi", "Ana Lopes"),
    not a thing ("the stairlift money") nor a place or firm."""
    if lang.KIN.fullmatch(f"my {name}"):
        return True  # "the stuff about my sister and the loan"
    if not name[:1].isupper() or directory.kind_of(name) is not None:
        return False
    if _known_person(name, directory):
        return True
    # "the bit about Nina and the overdraft": a name alone beside a thing is whom the thing
    # concerns, even when no page knows her yet (the thing goes, her other lines stay)
    return bool(re.fullmatch(NAME, name)) and name not in NOT_NAMES


#: What a participant's line of notes opens on when its speaker is the subject left out
#: ("Wei: finished the export", "Osgar: blocked on the certs", "Ana: will book the room") or
#: speaks for themselves ("Ana: I'll book it").
_SPOKEN_BODY = re.compile(
    r"(?:[a-z]+ed|will|won't|can|can't|could|should|must|is|isn't|was|wasn't|has|hasn't|had|"
    r"needs|wants|thinks|says|agrees|disagrees|asks|proposes|suggests|takes|owns|handles|"
    r"leads|going|out|off|away|back|working|looking|taking|waiting|still|also|on\s+it|"
    r"i|i'm|i'll|i've|i'd)\b"
)


#: A line's words that say what was done to its label: a participle and "by" ("made by").
_DONE_TO = re.compile(r"[a-z]+(?:ed|en|ght|de)\s+by\b")


def _speaks(name: str, raw: str, turn: Turn, directory: Directory) -> bool:
    """Whether the label of a line ("Wei: finished the export") names who said it, rather
    than what the line is about ("Budget: we are at 64%", "Subject: Q3 review", a mail's
    header): a person known by that name, a line of a list of participants' notes, or a
    line that reads as said by its label (its subject left out, or "I")."""
    if lang.MAIL_HEADER.fullmatch(name):
        return False  # "From: Karim Haddad": a mail's header
    if RECORD_OF.match(raw):
        return False  # "Pupil: Ada Moss, Year 5": whose record it is, said by no one
    label = _ITEM_LABEL.match(raw)
    body = raw[label.end() :] if label else raw
    if _DONE_TO.match(body) and name not in directory.known_person_names():
        return False  # "Quilt: made by Gran", "Cake: ordered by me": done to the label
    if name in directory.known_person_names() or raw in turn.items:
        return True
    return bool(_SPOKEN_BODY.match(body))


def _read(
    a: Analysis,
    turn: Turn,
    raw: str,
    directory: Directory,
    context: Context,
    current: list[Sentence],
    previous: list[Sentence] | None = None,
) -> None:
    """One sentence of a user turn read into `a`, with the corrections it makes applied
    (`previous`: the sentences of the user's message before, which a bare correction may
    mean)."""
    if (field := re.match(r"([\w-]+):\s", raw)) and lang.MAIL_HEADER.fullmatch(field.group(1)):
        return  # a mail's header line ("Subject: …", "From: …") is no fact
    label, body = turn.speaker, lang.without_fillers(raw)  # "on, um, the 3rd": "on the 3rd"
    body = lang.without_greeting(body)  # "Hello, the rent is …": "The rent is …"
    body = lang.names_capitalised(body, set(directory.known_person_names()))
    body = lang.weekdays_spelled(body)  # "coming over sat": "coming over Saturday"
    item = _ITEM_LABEL.match(raw)  # pasted notes: "Wei: finished the export"
    name = item.group("name") if item else None
    action = _ACTION_ITEM.match(raw)  # "Action (Tomas): book the room"
    if action and action.group("who").lower() not in ("me", "i"):
        name = action.group("who")
    if (
        name
        and name not in NOT_NAMES
        and not directory.kind_of(name)
        and (action or _speaks(name, raw, turn, directory))
    ):
        label = name
    if again := lang.said_again(body):  # "Thursday — no, sorry, Friday"
        body = again[0]
    if (made := lang.MAKE_THAT.match(body)) and (
        earlier := fix_last_value(
            a.sentences, made.group("new") or made.group("said"), speaker=label
        )
    ):
        # "Actually make that three": the last value said changes
        _reread(a, current, *earlier, directory, context)
        return
    previous = previous if previous is not None else []
    if (rest := afterthought.without_mark(body)) is not None:
        # "P.S. it's five, not eight", "EDIT: £358": the value it gives replaces the one it
        # means in the message's body; when none is sure, the line is read without its mark
        body_of = [t for t in current if t in a.sentences]  # its own message's, else before
        if fixed := afterthought.corrected(
            rest, body_of or [t for t in previous if t in a.sentences], label or "the user"
        ):
            i = a.sentences.index(fixed[0])
            _reread(a, current, i, fixed[1], directory, context)
            if fixed[0] in previous:
                previous[previous.index(fixed[0])] = a.sentences[i]
            return
        body = rest
    if corrected := bare_corrected(body, _still_in([*previous, *current], a.sentences), label):
        # "Sorry, 4:30.", "it's 6% not 5%": the one line of this message or the one before
        # with a value of that kind
        i = a.sentences.index(corrected[0])
        _reread(a, current, i, corrected[1], directory, context)
        if corrected[0] in previous:
            previous[previous.index(corrected[0])] = a.sentences[i]
        return
    # a sentence of a pasted mail is read on the day its message was sent
    ref = turn.dated.get(raw) or message_date(turn.time)
    s = read_sentence(turn.time, body, ref, directory, context, speaker=label)
    if turn.mail and raw in turn.mail[1] and not s.projects:
        about = turn.mail[0]
        if not directory.kind_of(about) and about not in directory.known_person_names():
            s.projects.append(directory.project(about))  # what the pasted mail is about
    if (action or raw in turn.rows) and not s.kinds:
        s.kinds.append("statement")  # an action item or a pasted record is worth a line
    elif raw in turn.answers and "statement" not in s.kinds:
        s.kinds.append("statement")  # what a reply and its question say: worth a line
    elif raw in turn.items and not s.kinds and len(raw.split()) >= 4 and not s.secrets:
        s.kinds.append("statement")  # an item the user listed: "- "mir ist kalt", not …"
    if raw in turn.rows:
        _row_subject(s, raw, directory)
    if (
        not s.kinds
        and "?" not in body
        and (calls_something_off(body) or supersession.says_ended(body))
    ):
        s.kinds.append("statement")  # "The garden party is cancelled.": it retires a line
    # "Correction, it's £420 now": the earlier sentence it names by its words; when it names
    # none, the later value it gives is looked for as any other's is (below)
    corrected_of = (
        corrected_earlier(s, a.sentences)
        if lang.CORRECTS_EARLIER.match(body) and not s.correction
        else []
    )
    if corrected_of:
        s.replaces = corrected_of
        for old in s.replaces:
            a.sentences.remove(old)
            if old in current:
                current.remove(old)
        if s.replaces and "statement" not in s.kinds and not s.kinds:
            s.kinds.append("statement")
    elif not s.correction and (contrasted := contrasted_earlier(s, a.sentences)):
        s.replaces = contrasted  # "… is gluten, not dairy": the earlier "dairy" is corrected
        for old in contrasted:
            a.sentences.remove(old)
            if old in current:
                current.remove(old)
    elif s.kinds and (
        restated := restates_earlier(
            s,
            [
                t
                for t in a.sentences
                if (raw not in turn.rows or t.raw not in turn.rows)
                and (raw not in turn.dated or t.speaker == s.speaker or t.raw in turn.dated)
                # one message listing like lines ("Session: Mon 7 Sept", "Session: Mon 14
                # Sept") lists them all: a later one holds instead only when it says so
                and not (
                    t.time == s.time
                    and t.speaker == s.speaker
                    and raw not in turn.dated
                    and not lang.RESTATED.search(raw)
                )
            ],
            any_speaker=raw in turn.dated,  # a mail chain: a later reply's terms hold
        )
    ):  # the records of one pasted block are side by side: none restates another
        s.replaces = restated  # the same thing said again with another value: it holds now
        for old in restated:
            a.sentences.remove(old)
            if old in current:
                current.remove(old)
    elif not s.correction and (later := _later_value_of(s, a.sentences, turn)) is not None:
        _supersede(a, current, s, later)
    elif not s.correction and (lacked := _lacked_of(s, a.sentences, turn)) is not None:
        # "the pharmacy had no co-codamol so they gave me dihydrocodeine instead": the line
        # that gave the thing lacking goes under Past, what was had instead is current
        s.supersedes = [*lacked.supersedes, lacked]
        _takes_place_of(s, lacked)
        a.sentences.remove(lacked)
        if lacked in current:
            current.remove(lacked)
    elif not s.correction and (moved := _shifted_in_session(s, a.sentences, turn)) is not None:
        # "the deadline is extended by a fortnight" after "entries close on Friday": the new
        # day is the old one plus the count, the earlier line goes under Past
        s.supersedes = [*moved.supersedes, moved]
        _takes_place_of(s, moved)
        for held in (a.sentences, current):
            if moved in held:
                held.remove(moved)
    elif not s.correction and (swapped := swapped_earlier(s, a.sentences)):
        s.replaces = swapped  # "Lin is moving from Friday to Saturday": the Friday line goes
        for old in swapped:
            a.sentences.remove(old)
            if old in current:
                current.remove(old)
        if not s.kinds:
            s.kinds.append("statement")
    elif not s.correction and (called_off := called_off_earlier(s, a.sentences)):
        s.replaces = called_off  # "the garden party is cancelled": the party's line goes
        for old in called_off:
            a.sentences.remove(old)
            if old in current:
                current.remove(old)
        if not s.kinds:
            s.kinds.append("statement")
    elif not s.correction and (earlier := contrasted_value_earlier(body, label, a.sentences)):
        # "back on the 3rd, not the 2nd": the sentence that said the 2nd
        _reread(a, current, *earlier, directory, context)
        return
    elif (
        not s.correction
        and label is None
        and (mended := contrasted_value_earlier(body, label, a.sentences, found=True))
    ):
        # "the dentist is 4.45, not 4.15" of what the assistant found: its finding corrected
        # by the user, and so confirmed
        i, text = mended
        a.sentences[i].text = text
        a.sentences[i].statement = restate(a.sentences[i])
        if "accepted" not in a.sentences[i].kinds:
            a.sentences[i].kinds.append("accepted")
        return
    prev = current[-1] if current else None
    if (
        prev is not None
        and prev in a.sentences
        and not item
        and raw not in turn.pieces  # a clause of a run-on sentence is a statement of its own
        and _continues(s, prev, body)
    ):
        _join(prev, s)  # "The renovation starts May 17. Our contractor is Bauwerk."
        if not (prev.replaces or prev.supersedes) and (
            later := _later_value_of(prev, a.sentences, turn)
        ):
            # "it's not 40. It says 14.": the two read as one give the later value
            _supersede(a, current, prev, later)
        return
    before = prev if prev is not None else (previous[-1] if previous else None)
    if (
        before is not None
        and s.kinds
        and not (s.replaces or s.correction or s.secrets or s.people)
        and before.speaker == s.speaker
        and (named := carried_subject(body, before)) is not None
    ):
        # "The lift in block C is out again. It's booked for repair on the 8th of May.":
        # the thing named, not "it"
        carried = read_sentence(
            turn.time, named, message_date(turn.time), directory, context, speaker=label
        )
        if carried.kinds:
            s = carried
    a.sentences.append(s)
    current.append(s)


def _read_recap(
    a: Analysis,
    turn: Turn,
    recap: list[str],
    directory: Directory,
    context: Context,
    since: int,
    let_go: list[set[str]] | None = None,
) -> None:
    """The assistant's recap of what the user said (`recap.py`), which the user let stand,
    read in the user's voice, clause by clause, in place of what the rules could not keep
    of the user's own words. A clause that says again a sentence of the user's (read since
    `since`, an index of `a.sentences`) that is kept as a line is left out: a value held on
    two lines would leave a later value two lines to replace. One that says again only
    sentences that are not kept (no kind, no name the session knows: a dialect, another
    language) stands in for them; one that says again nothing read (a pasted layout the
    rules did not read) is a statement of its own."""
    ref = message_date(turn.time)
    known = [n.lower() for n in directory.known_person_names()]

    said_days: dict[str, list[str]] = {}

    def days(text: str) -> list[str]:
        if text not in said_days:
            said_days[text] = [d.isoformat() for _, d in absolute_dates(text, ref)]
        return said_days[text]

    def kept(s: Sentence) -> bool:
        low = s.text.lower()
        return bool(s.kinds or s.people or s.others) or any(
            re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", low) for n in known
        )

    read: list[Sentence] = []
    users = {id(s) for s in a.sentences[since:]}  # the user's, not the recap's own readings
    for clause in clauses(recap):
        heard = [s for s in a.sentences[since:] if id(s) in users]
        said = [heard[i] for i in restated(clause, [s.text for s in heard], days)]
        better = any(kept(s) for s in said)
        if let_go and any(names_any_of(s.text, let_go) for s in said):
            # "She sails the Petrel, and Gus, whom she never liked, isn't asked" / "She
            # sails the Petrel" / "forget Gus": what the user's reply lets go of goes with
            # the sentence (the request takes it out, of the session's record too); the
            # recap, which does not name it, is read beside it for the rest
            better, said = False, []
        elif better:
            # a change the user said in words the rules could not date ("moved, the 17th
            # now" in another language), its day given by the recap: the recap's clause
            # stands in for what it says again, so that its day replaces the old one
            new_days = set(days(clause)) - {
                d for s in said for d in [*days(s.text), *re.findall(r"\d{4}-\d{2}-\d{2}", s.text)]
            }
            changes = [s for s in said if supersession.CHANGE.search(s.raw or s.text)]
            if new_days and len(changes) == 1 and supersession.CHANGE.search(clause):
                said = changes  # the others it says again stand as they were
            elif (by_day := _dated_by_weekday(said, clause, new_days)) is not None:
                # "on the Thursday", read by the rules as one Thursday, the recap gives as
                # "Thursday 9 March" and the user lets stand: the recap's day is the one meant
                said = [by_day]
            elif (
                new_days
                and all(_days_in(s, days) for s in said)
                and not set(days(clause)) & {d for s in said for d in _days_in(s, days)}
                and all(
                    _dates_its_undated_part(clause, s, days) or not _surely_dated(s) for s in said
                )
            ):
                # "Braces off on Saturday, and Dr Nasser wants a check-up" / "Check-up with
                # Dr Nasser: Wednesday 4 February": the recap dates another thing the
                # sentence names; the sentence stays and the clause is a line of its own
                said = []
            elif not _stands_in(clause, said, days):
                continue  # a sentence the user said stays, and what later replaces it finds it
        before = list(a.sentences)
        for s in said:
            a.sentences.remove(s)  # the recap says it, as the rules could not, or better
        was = {id(s) for s in a.sentences}
        _read(a, turn, as_users(_EMPHASIS.sub("", clause)), directory, context, read)
        # (what the clause added: a line it corrects in place leaves the count as it was)
        added = [s for s in a.sentences if id(s) not in was]
        if better and not any(kept(s) for s in added):
            a.sentences[:] = before  # read as nothing worth a line: the line kept stays
        elif not better and not any(kept(s) for s in added):
            # a reading of what the rules could not read (a pasted layout): a statement of
            # its own, as the recap gives it ("a reminder at 18:45 every Wednesday")
            for s in added:
                if not s.kinds and re.search(r"\d", s.text):
                    s.kinds.append("statement")
                    s.statement = as_line(s.text)


#: Where a sentence's clauses part: ", and", ", so", "; ", " so that".
_CLAUSE_JOIN = re.compile(r"\s*(?:[,;]\s*(?:and|so|but|while)\b|;|\bso\s+that\b)\s*", re.I)


def _dates_its_undated_part(clause: str, s: Sentence, days: Callable[[str], list[str]]) -> bool:
    """Whether a recap's `clause` says again a part of the sentence that names no day
    ("Dr Nasser wants to see me for a check-up" of "Braces off on Saturday, and Dr Nasser
    wants …"), more than the part that does: it dates another thing than the sentence's
    day, not the same thing on another day ("the craft fair on Saturday 9 March" of "went
    to the craft fair last Saturday")."""
    words = lang.content_words(clause)
    best_dated = best_undated = 0
    for part in _CLAUSE_JOIN.split(s.text):
        shared = len(words & lang.content_words(part))
        if days(part) or re.search(r"\d{4}-\d{2}-\d{2}", part):
            best_dated = max(best_dated, shared)
        else:
            best_undated = max(best_undated, shared)
    return best_undated >= 2 and best_undated > best_dated


#: A day said so that only one day can be meant: "last Saturday", "yesterday", "tomorrow".
_SURE_DAY = re.compile(
    r"\b(?:last|yesterday|today|tonight|tomorrow|this\s+(?:morning|afternoon|evening))\b", re.I
)


def _surely_dated(s: Sentence) -> bool:
    """Whether the rules read the sentence's day from words only one day fits ("went last
    Saturday"), not from a weekday alone or a count from a day a reader may take otherwise
    ("a week tomorrow" said of a comment's date): a recap giving another day then misreads
    it, and its clause is no line of its own."""
    return any(_SURE_DAY.search(phrase) and "week" not in phrase.lower() for phrase, _ in s.dates)


def _days_in(s: Sentence, days: Callable[[str], list[str]]) -> set[str]:
    """The days a sentence names, as read or as the rules wrote them beside it."""
    return {*days(s.text), *re.findall(r"\d{4}-\d{2}-\d{2}", s.text)}


_ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def _stands_in(clause: str, said: list[Sentence], days: Callable[[str], list[str]]) -> bool:
    """Whether a recap's `clause` stands in for the user's sentences `said` that it says
    again and that are kept as lines: when it reads a day the rules could not read in them,
    puts together what was spelled out letter by letter, reads a message of signs, or says
    more than a line kept of a layout (a field, a record: no verb)."""
    texts = [s.raw or s.text for s in said]
    return (
        dates_unread(clause, [s.text for s in said], days)
        or any(spelled_words(t) for t in texts)
        or all(unread(t) for t in texts)
        or (
            not any(lang.has_verb(t) for t in texts)
            and says_more(clause, [s.text for s in said], days)
        )
        # "Rebooked for Tuesday." and "'first slot' means 7:30" / "the fitter is now coming
        # on Tuesday 28 September, first slot at 7:30": what says it more fully than the
        # scraps of a few words that gave its day
        or (
            bool(dated := [s for s in said if days(s.text) or _ISO_DAY.search(s.text)])
            and all(len(_as_said(s.text).split()) <= 4 for s in dated)
            and says_more(clause, [s.text for s in said], days)
        )
    )


#: A change said with its old day first: "moved from Tuesday to Friday 9 May".
_MOVED_FROM = re.compile(
    r"\b(?:mov|chang|push|switch|reschedul|shift|postpon|brought|bring|put)\w*\b[^.;]{0,40}?"
    r"\bfrom\s+(?:the\s+)?$",
    re.I,
)
_ARROW = re.compile(r"\s*(?:\([^)]*\))?\s*(?:→|->|=>)\s*(?:the\s+)?", re.I)
#: "not" right before a day ("not this Thursday", "not on Friday") and what opens the day said
#: instead after it ("but", a comma): "not this Thursday but the one after, the 18th".
_NOT_BEFORE = re.compile(r"\bnot\s+(?:on\s+)?(?:the\s+)?$", re.I)
_BUT_THEN = re.compile(r"^\s*(?:\([^)]*\))?\s*(?:,|\bbut\b|;|–|—)", re.I)
_FROM_TO = re.compile(
    r"\s*(?:\([^)]*\))?\s*(?:to|until|till|→|->)\s+(?:the\s+)?(?:(?:on|next|this)\s+)?"
    rf"(?:(?:{'|'.join(lang.WEEKDAYS)}),?\s+)?",
    re.I,
)


#: What comes before the date a writing bears: "dated", "letter of", "email from".
_DATES_A_WRITING = re.compile(
    r"(?:\bdated|\b(?:letter|e-?mail|note|message|memo|notice|invoice)s?\s+"
    r"(?:of|dated|from|sent\s+on))"
    r"\s+(?:the\s+)?$"
)


#: A clause that says something will not happen, up to the day it names: "but not going home
#: (Friday)", "he won't be coming back (this Friday)", "the fair isn't on (Saturday)"; not "not
#: until Friday" or "can't wait for Friday", which still name a day of something to come.
_DENIED_DAY = re.compile(
    r"(?:\bnot|n['’]t|\bno\s+longer)\s+(?:be\s+|being\s+)?(?:going|coming|happening|"
    r"going\s+ahead|taking\s+place|on)\b[^,;:]*$",
    re.I,
)
_CLAUSE_OPEN = re.compile(r"[,;:–—]|\b(?:but|and|so|while|though)\b", re.I)


def _day_denied(text: str, dates: list[tuple[str, date]], when: date | None) -> bool:
    """Whether the clause that names the day a sentence is about says it will not happen then
    ("Fit to leave but not going home Friday")."""
    phrase = next((p for p, d in dates if d == when), None)
    if phrase is None or (at := text.lower().find(phrase.lower())) < 0:
        return False
    opens = [m.end() for m in _CLAUSE_OPEN.finditer(text, 0, at)]
    return bool(_DENIED_DAY.search(text[opens[-1] if opens else 0 : at]))


def _moved_to(text: str, dates: list[tuple[str, date]]) -> date:
    """The day a sentence is about: its first date, or, when it says a thing moved from one
    day to another ("moved from Tuesday to Friday 9 May"), the day it moved to (a range,
    "from 1 July to 5 July", starts on its first)."""
    low = text.lower()
    if len(dates) > 1:
        # a letter's or a message's own date ("a letter dated the 28th", "their email of 3
        # May") says when it was written, not the day it is about
        about = [pd for pd in dates if not _DATES_A_WRITING.search(low[: low.find(pd[0].lower())])]
        dates = about or dates
    first, second = dates[0], dates[1] if len(dates) > 1 else None
    at = low.find(first[0].lower())
    if second is not None:
        end = at + len(first[0])
        to = low.find(second[0].lower(), end)
        if (
            to > 0
            and (
                (_MOVED_FROM.search(text[:at]) and _FROM_TO.fullmatch(text[end:to]))
                # "Tue → Thu": the day after the arrow is where it went
                or _ARROW.fullmatch(text[end:to])
                # "not this Thursday but the 18th", "not Friday, Monday": the day said after
                # the one denied
                or (_NOT_BEFORE.search(text[:at]) and _BUT_THEN.search(text[end:to]))
            )
        ):
            return second[1]
        if to > 0 and _denied_before(text, at) and _said_instead(text[end:to]):
            # "she doesn't arrive Thursday any more, she's coming Saturday now": the day
            # after the one denied, in a clause of its own
            return second[1]
    return first[1]


#: A clause that says a thing will not be then: "doesn't arrive", "can't do", "no longer".
_DENIED = re.compile(r"(?:\bnot|n['’]t|\bno\s+longer)\b", re.I)
#: What parts a denied day from the day said in its place: a comma, a semicolon, a dash or
#: "but", never "and" or "or" ("can't do Tuesday or Thursday" denies both).
_INSTEAD_OPEN = re.compile(r"[,;–—]|\bbut\b", re.I)


def _denied_before(text: str, at: int) -> bool:
    """Whether the clause that leads up to `at` says its thing will not happen."""
    opens = [m.end() for m in _CLAUSE_OPEN.finditer(text, 0, at)]
    return bool(_DENIED.search(text[opens[-1] if opens else 0 : at]))


def _said_instead(between: str) -> bool:
    """Whether the text between a denied day and the next one opens a clause of its own that
    does not deny it too."""
    m = _INSTEAD_OPEN.search(between)
    if m is None:
        return False
    rest = between[m.end() :]
    return not _DENIED.search(rest) and not re.match(r"\s*(?:or|nor|and)\b", rest, re.I)


def _dated_by_weekday(said: list[Sentence], clause: str, new_days: set[str]) -> Sentence | None:
    """The one sentence of `said` that dates a thing by a weekday alone ("on the Thursday"),
    when the recap's `clause` names that weekday with a day of its own (one of `new_days`,
    on that weekday): the recap says which Thursday was meant. None otherwise."""
    if len(said) != 1 or len(new_days) != 1:
        return None
    raw = said[0].raw or said[0].text
    day = date.fromisoformat(next(iter(new_days)))
    weekday = lang.WEEKDAYS[day.weekday()]
    low, said_low = clause.lower(), raw.lower()
    if re.search(r"\d", re.sub(r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b", " ", said_low)):
        return None  # the user gave a day of the month, a time or a figure of their own
    if not (re.search(rf"\b{weekday}\b", said_low) and re.search(rf"\b{weekday}\b", low)):
        return None
    return said[0]


def _relisted(a: Analysis, turn: Turn, directory: Directory, current: list[Sentence]) -> None:
    """A block of records pasted again, changed (a rota, a schedule, a guest list with the
    same columns, keyed the same way, sharing a key with one pasted earlier in the session):
    a record whose key is no longer there is said to be no longer listed, which moves it to
    Past; one whose values changed is replaced by the new record."""
    blocks: dict[frozenset[str], dict[str, Sentence]] = {}
    for s in current:
        if s.raw in turn.rows and (shape := record_shape(s.raw)) is not None:
            blocks.setdefault(shape[1], {})[shape[0]] = s
    for labels, now in blocks.items():
        before = [
            (shape[0], t)
            for t in a.sentences
            if t not in current
            and t.raw
            and (shape := record_shape(t.raw)) is not None
            and shape[1] == labels
        ]
        if len(now) < 2 or not same_list({key for key, _ in before}, set(now)):
            continue  # one record, or another block: not the same list again
        for key, old in before:
            if old not in a.sentences:
                continue
            if key in now:
                if old.raw != now[key].raw:
                    now[key].replaces.append(old)  # its values changed
                    a.sentences.remove(old)
                continue
            gone = read_sentence(
                turn.time, f"{key} is no longer listed.", message_date(turn.time), directory
            )
            gone.kinds = gone.kinds or ["statement"]
            gone.replaces = [old]
            gone.people, gone.subject = [*old.people], old.subject  # on the record's page
            for kind, names in old.others.items():
                gone.others.setdefault(kind, [*names])
            gone.projects = gone.projects or [*old.projects]
            a.sentences.remove(old)
            a.sentences.append(gone)


#: Someone or something said to be taken off a list: "take Marcus off the rota", "Dev has
#: been dropped from the schedule", "cross Ana Ruiz off the guest list", "remove Tom from it".
_TAKEN_OFF = re.compile(
    rf"\b(?i:take|took|taken|taking|cross|crossed|strike|struck|knock|knocked)\s+(?P<a>{NAME})\s+off"
    rf"\s+(?:the|our|my|this|that|it\b)"
    rf"|\b(?i:remove|removed|removing|drop|dropped|dropping|delete|deleted)\s+(?P<b>{NAME})\s+"
    rf"(?:from|off)\s+(?:the|our|my|this|that|it\b)"
    rf"|\b(?P<c>{NAME})\s+(?:is|was|has\s+been|have\s+been|got|gets|'s|’s)\s+(?:now\s+)?"
    rf"(?:taken\s+off|dropped\s+(?:from|off)|removed\s+from|crossed\s+off|struck\s+off|off)\s+"
    rf"(?:the|our|my|this|that)\s+(?:\w+\s+)?(?:list|rota|roster|schedule|line-?up|team|sheet|"
    rf"table|register|plan|squad|programme|program|agenda|calendar)\b",
)


def _taken_off(
    a: Analysis, turn: Turn, raw: str, directory: Directory, current: list[Sentence]
) -> None:
    """Someone said to be taken off a list ("take Marcus off the rota") is no longer listed
    anywhere a pasted record of theirs says they are: the records of this session move to
    Past now, those of earlier sessions when the pages are written (`Sentence.unlists`). A
    name that fits the keys of two records ("Tom" of Tom Okafor and Tom Hale) moves none."""
    names = [
        n for m in _TAKEN_OFF.finditer(raw) if (n := m["a"] or m["b"] or m["c"]) not in NOT_NAMES
    ]
    said = current[-1] if current and current[-1].raw == lang.without_fillers(raw) else None
    for name in names:
        records = [
            (shape[0], old)
            for old in a.sentences
            if old.raw and old is not said and (shape := record_shape(old.raw)) is not None
            and _keyed(shape[0], name)
        ]  # fmt: skip
        if len({key for key, _ in records}) > 1:
            continue  # whose records they are is unsure
        holder = said
        if holder is None or not holder.kinds or name not in " ".join(holder.people):
            # a request ("please take Tom off the rota") says it as a fact of its own
            holder = read_sentence(
                turn.time, f"{records[0][0] if records else name} is no longer listed.",
                message_date(turn.time), directory,
            )  # fmt: skip
            holder.kinds = holder.kinds or ["statement"]
            if records:
                holder.people, holder.subject = [*records[0][1].people], records[0][1].subject
            a.sentences.append(holder)
        holder.unlists.append(name)
        if records and records[0][0] != name:  # "Lena" of the record keyed "Lena Berg"
            holder.people = [records[0][0] if p == name else p for p in holder.people]
            holder.subject = records[0][0] if holder.subject == name else holder.subject
        for _, old in records:
            holder.replaces.append(old)
            a.sentences.remove(old)


def _keyed(key: str, name: str) -> bool:
    """Whether a record keyed `key` is `name`'s: the same name, or a first name of it."""
    return key == name or key.split()[0] == name or name.split()[0] == key


def _row_subject(s: Sentence, raw: str, directory: Directory) -> None:
    """A pasted record is about what its first cell names: a full name there ("Oona Brandt,
    role: cafe; notes: no dairy") is a person, unless it is known as something else."""
    key = re.match(rf"(?P<name>{NAME})(?:\s*\([^)]*\))?,\s", raw)
    if key is None or " " not in (name := key.group("name")) or name.split()[0] in NOT_NAMES:
        return
    if lang.KIN_TITLE.match(name) or re.match(lang.TITLE, name):
        return  # "Aunt Mira", "Dr. Osei": found as people by their own rule
    if directory.kind_of(name) or any(name in names for names in s.others.values()):
        return
    if name not in s.people:
        s.people.insert(0, name)
    s.subject = s.subject or name


#: A sentence that goes on about what the one before it said: it opens on a pronoun or on a
#: definite or possessive noun ("the budget", "our contractor") rather than on a name.
_GOES_ON = re.compile(
    r"^(?:(?:and|but|so|also|plus)[,\s]+)?(?:it|it's|its|they|they're|their|them|this|that|"
    r"these|those|the|our)\b(?!\s+(?:user|assistant)\b)",
    re.I,
)


def _continues(s: Sentence, prev: Sentence, body: str) -> bool:
    """Whether `s`, said right after `prev` in the same message by the same speaker, goes on
    about the same thing: it opens on a reference back (`_GOES_ON`), names no person and
    no date of its own, and is a plain statement; neither holds a secret or a correction.
    Kept as one fact, the two are read, filed and forgotten together."""
    return (
        bool(_GOES_ON.match(body))
        and s.speaker == prev.speaker
        and bool(s.kinds)
        and set(s.kinds) <= {"statement", "setup"}
        and bool(prev.kinds)
        and not (s.people or s.subject or s.when or s.correction or s.replaces or s.secrets)
        and not (prev.secrets or prev.correction or prev.statement)
    )


#: A sentence whose subject is a pronoun for a thing, and what it goes on to say: "It's
#: booked for the 8th" -> "booked for the 8th"; "It needs a new pump" -> "needs a new pump".
_THING_PRONOUN = re.compile(
    r"^\W*(?:(?:and|but|so|also|oh)[,\s]+)?(?P<pronoun>it|that|this|they)"
    r"(?:(?:'s|’s|'re|’re|\s+is|\s+are|(?P<aux>\s+was|\s+were|'ll\s+be|’ll\s+be|\s+will\s+be))\s+"
    r"(?P<said>(?:\w+ed|\w+en|due|set|(?:being|getting)\s+\w+ed)\s.+)|\s+(?P<verb>(?:needs|need|has|have|had|costs?|comes?|starts?|opens?|closes?|runs?|"
    r"leaves?|arrives?|goes|go|takes?|got|gets?|broke|will|won't|can|can't|should|must)\s.+))$",
    re.I,
)
#: The thing a statement is about, as it names it: "The lift in block C" in "The lift in
#: block C is out again", "Our boiler at the cottage" in "Our boiler at the cottage keeps
#: cutting out".
_THING_SUBJECT = re.compile(
    r"^\W*(?P<thing>(?:the|my|our|your|this|that)\s+[^,;:.!?]{2,50}?)\s+"
    r"(?:is|are|was|were|has|have|had|will|won't|can|can't|could|should|keeps?|kept|needs?|"
    r"needed|broke|went|got|gets|stopped|started|starts|isn't|aren't|wasn't|looks|seems|"
    r"costs?|leaks?|came|arrive|arrived|arrives|failed|died)\b",
    re.I,
)
#: What "they" cannot mean without naming people: "The neighbours are moving. They're …"
_PEOPLE_NOUNS = re.compile(
    r"\b(?:people|kids|children|parents|neighbou?rs|guys|folks|team|family|friends|"
    r"builders|staff|tenants|guests|boys|girls|twins|in-laws|grandparents|cousins|relatives|"
    r"colleagues|clients|students|members|volunteers)\b",
    re.I,
)


def carried_subject(body: str, before: Sentence) -> str | None:
    """`body`, a short statement whose subject is "it", "that" or "they", with the thing
    the sentence just before is about named instead ("The lift in block C: booked for
    repair on the 8th of May"). None when `body` opens on no such pronoun, or the sentence
    before is not about a thing (a person, the user, no subject it names): then it stays
    as said."""
    m = _THING_PRONOUN.match(body)
    if m is None or len(body.split()) > 16 or not before.raw:
        return None
    if before.subject or before.people or lang.KIN.search(before.raw):
        return None  # a person is named there: "it" may be what they said or did
    thing = _THING_SUBJECT.match(before.raw)
    if thing is None:
        return None
    name = thing.group("thing").strip()
    if re.search(r"\b(?:I|me|you)\b", name) or len(name.split()) < 2:
        return None
    plural = m.group("pronoun").lower() == "they"
    if plural and (_PEOPLE_NOUNS.search(name) or not re.search(r"s\b", name)):
        return None  # "they" of people, or of one thing: unsure
    if not plural and re.search(r"\b(?:are|were|have)\b", before.raw[thing.end("thing") :][:8]):
        return None  # "it" of a plural subject: it means something else
    if m.group("said") and re.match(r"been\b", m.group("said"), re.I):
        return None  # "it's been a long week"
    aux = (m.group("aux") or "").strip().replace("’", "'")
    aux = {"'ll be": "will be", "were": "was"}.get(aux, aux)  # the tense said stays
    if not aux and m.group("said") and re.match(r"(?:being|getting)\s", m.group("said"), re.I):
        aux = "are" if plural else "is"  # "being fitted on the 14th" is to come
    said = f"{aux} {m.group('said')}" if aux and m.group("said") else m.group("said")
    said = said or m.group("verb")
    if plural and re.search(r"\b(?-i:[A-Z])", name[1:]):
        return None  # "The Hendersons are moving. They're …": a family, people
    return f"{name[:1].upper()}{name[1:]}: {said}"


def _supersede(a: Analysis, current: list[Sentence], s: Sentence, later: Sentence) -> None:
    """`s` gives a later value for the thing of `later`, an earlier sentence: the earlier
    line goes, and with it what that line had replaced, so each value it held stays under
    Past (the last said last)."""
    s.supersedes = [*later.supersedes, later]
    _takes_place_of(s, later)
    kept = _edited_to(later, s, a.sentences)
    for held in (a.sentences, current):
        if later in held:
            if kept is None:
                held.remove(later)
            else:  # what else it said stays, with the new value in its place
                held[held.index(later)] = kept


def _join(prev: Sentence, s: Sentence) -> None:
    """`s` said on as part of `prev`: one fact of two sentences."""
    prev.text = f"{prev.text} {s.text}"
    prev.raw = f"{prev.raw} {s.raw}".strip()
    prev.dates += s.dates
    prev.kinds += [k for k in s.kinds if k not in prev.kinds and k != "statement"]
    prev.projects += [x for x in s.projects if x not in prev.projects]
    prev.topics += [x for x in s.topics if x not in prev.topics]
    for kind, names in s.others.items():
        prev.others.setdefault(kind, []).extend(n for n in names if n not in prev.others[kind])
    prev.roles += [r for r in s.roles if r not in prev.roles]


#: A line that opens on whose it is: "jules: …", "Ana Ruiz: …".
_LABELLED_LINE = re.compile(r"^[^\s:]{1,30}(?: [^\s:]{1,30})?: ")


def _opening(sentences: list[Sentence], dropped: list[str]) -> str | None:
    """What the session was about: the first words kept (corrections applied), until past
    60 characters; None when the session began with what the user asked to forget."""
    said = [x for x in sentences if x.speaker != "the assistant" and x.raw]
    if not said:
        return None
    text = ""
    for x in said:
        if x.time != said[0].time or (text and _LABELLED_LINE.match(x.raw)):
            break  # another message, or the first line of someone else's pasted below
        text = f"{text} {x.raw}".strip()
        if len(text) > 60 or text.endswith(":"):
            break  # long enough, or a line that introduces what was pasted below it
    if any(d.split(" (")[0][:40] in text for d in dropped):
        return None
    return text


#: An assistant's acknowledgement or echo of what the user said: not a finding of its own.
_ECHO = re.compile(
    r"(?:noted|got\s+it|done|sure|ok(?:ay)?|thanks|thank\s+you|great|here(?:'s|\s+is)|"
    r"sounds|understood|will\s+do|happy\s+to|let\s+me|i've|i\s+have|i'll|i\s+will|"
    r"congratulations|sorry)\b",
    re.I,
)

#: Such an acknowledgement before a colon, what follows it a sentence of its own: "Noted: …".
_ECHO_COLON = re.compile(
    r"^\W*(?:noted|got\s+it|done|understood|updated|ok(?:ay)?|great)\s*:\s+(?=[\w*])", re.I
)

# the cheap test in front of every pattern of this module, all defined above (prefilter.py)
gate_patterns(globals())


def _said_by(found: Sentence, lines: list[Sentence]) -> bool:
    """Whether the lines read from a recap hold four in five of a finding's words."""
    words = lang.content_words(_as_said(found.text))
    held = set().union(*(lang.content_words(x.text) for x in lines)) if lines else set()
    return bool(words) and 5 * len(words & held) >= 4 * len(words)


def _as_said(text: str) -> str:
    """A line without the days the rules added ("on Friday (2031-05-09)" -> "on Friday")."""
    return re.sub(r" \(\d{4}-\d{2}-\d{2}(?: to \d{4}-\d{2}-\d{2})?\)", "", text)


#: A line of a message set apart as a quote ("> …"): what the writer drafts or cites.
_QUOTED_LINE = re.compile(r"^[ \t]*>[ \t]?(.*)$", re.M)


def findings(
    turn: Turn,
    directory: Directory,
    *,
    specific: bool = False,
    shown: bool = False,
    given: Callable[[], set[tuple[str, str]]] | None = None,
) -> list[Sentence]:
    """What an assistant's turn found or proposed: kept if the user's reply accepts it.
    Right after a tool's result (or, with `specific`, for a reply that credits it: "good
    catch"), what it says with something specific in it (a number, a name, a code) is a
    finding too. With `shown`, the turn reads out a picture or a file the user showed:
    every such sentence of it (up to a page's worth) is what it holds. One opening on an
    acknowledgement ("Noted: Ama, your niece, starts on 3 May") is what follows it, kept only
    when it gives a value (a date, a sum) the session's lines do not (`given`: their values)."""
    own = [r for r in turn.sentences if not r.endswith("?") or r is turn.sentences[-1]]
    # (not what it drafts for the user, set apart as a quote: "> Ms Ada Lee thanks …")
    drafted = " ".join(m.group(1) for m in _QUOTED_LINE.finditer(turn.message))
    acked = {r: _ECHO_COLON.sub("", r) for r in own if _ECHO_COLON.match(r)}
    own = [acked.get(r, r) for r in own]
    said = [
        r
        for r in own
        if not r.endswith("?") and not _ECHO.match(r) and not (drafted and r[:40] in drafted)
    ]
    if shown:  # a calendar's cell or a label's line says its thing in few words
        kept = [r for r in said if len(r.split()) >= 3 and lang.SPECIFIC.search(r)]
        return [finding(raw, turn, directory) for raw in kept[:_SHOWN_MOST]]
    chosen = [] if specific else [r for r in said if lang.FINDING.search(r)][:3]
    if turn.after_tool or turn.tool_ran or specific:
        # what a tool printed, as the assistant reports it: a version, a count, a name
        chosen = [
            r for r in said if r in chosen or (lang.worth_keeping(r) and lang.SPECIFIC.search(r))
        ][:4]
    offered = [] if specific else [p for r in turn.sentences if (p := proposed(r))]
    if offered:
        # "How about a weekend in Rye? The inn has a room at £95 a night.": what it proposes,
        # and what it says beside it, kept as the user takes it up
        chosen = [*chosen, *(r for r in said if r not in chosen and len(r.split()) >= 5)][-3:]
    elif not chosen and own and lang.OFFER.search(own[-1]):
        # "Then settle should sum integer cents ... Shall I make both changes?"
        chosen = [r for r in said if len(r.split()) >= 6][-2:]
    out = [finding(p, turn, directory, proposal=True) for p in offered]
    found = [finding(raw, turn, directory) for raw in chosen]
    if acked:
        # what the user said, said again after "Noted:": a value on two lines would leave a
        # later value two lines to replace
        again, held = set(acked.values()), given() if given is not None else set()
        found = [
            f
            for raw, f in zip(chosen, found, strict=True)
            if raw not in again
            or {(v.kind, v.norm) for v in supersession.values(f.text) if v.kind != "venue"} - held
        ]
    return out + found


#: A value a reading of a pasted block may give again: a figure of two characters or more.
_PASTED_VALUE = re.compile(r"\d[\d.,:/]*\d")


def _figures_of(lines: list[Sentence]) -> tuple[set[str], set[str]]:
    """The figures the `lines` give (`_PASTED_VALUE`), and their words of substance."""
    text = " ".join(s.text for s in lines)
    return set(_PASTED_VALUE.findall(text)), lang.content_words(text)


def _values_of(lines: list[Sentence]) -> set[tuple[str, str]]:
    """The values the `lines` kept give (those of a kind), each as (kind, value)
    (`supersession.values`)."""
    return {(v.kind, v.norm) for s in lines if s.kinds for v in supersession.values(s.text)}


def _only_given(s: Sentence, given: tuple[set[str], set[str]], *, words: bool = True) -> bool:
    """Whether a finding only says again what the session's lines give (`given`: their
    figures and words): every figure of it and two in three of its words, so that a later
    change would find two lines to replace. A finding of no figure (a name, a word), or
    one that says more ("port 2525, which the firewall only opens to the office"), is not;
    without `words`, its figures alone decide."""
    figures = set(_PASTED_VALUE.findall(s.text))
    said = lang.content_words(_as_said(s.text))
    return (
        bool(figures)
        and figures <= given[0]
        and (not words or 3 * len(said & given[1]) >= 2 * len(said))
    )


def read_out(turn: Turn, pasted: str, directory: Directory) -> list[Sentence]:
    """The assistant's answer to the user's question about a block they pasted (a plan, a
    statement, a schedule): each item of a list it sets out, whole, and each sentence outside
    one, that gives a figure written in the block ("**46** is your lower right molar. It
    needs a root canal.") — what it read out of it, up to a page's worth."""
    values = set(_PASTED_VALUE.findall(pasted))
    items = list_items(turn.message)
    inside = " ".join(items)
    parts = [*items, *(r for r in turn.sentences if r not in inside)]
    kept = [
        raw
        for raw in parts
        if not raw.rstrip().endswith("?")
        and len(raw.split()) >= 4
        and values & set(_PASTED_VALUE.findall(raw))
    ]
    return [finding(raw, turn, directory) for raw in kept[:_SHOWN_MOST]]


def finding(raw: str, turn: Turn, directory: Directory, *, proposal: bool = False) -> Sentence:
    """One sentence of an assistant's turn as a finding (`proposal`: what it proposed)."""
    clean, _ = mask(raw)
    clean = _EMPHASIS.sub("", clean)  # "**Fri 13**": the day, not its markup
    # a proposal's "the Saturday" is of the plan it proposes, not of the week it is made in
    dated, rel, when = (clean, [], None) if proposal else _dated(clean, message_date(turn.time))
    kinds = ["finding", "proposal"] if proposal else ["finding"]
    s = Sentence(time=turn.time, text=dated, dates=rel, speaker="the assistant", kinds=kinds)
    s.when = when
    s.raw = clean if proposal else ""
    find_entities(s, clean, directory)
    s.statement = restate(s)
    return s


def _dated(clean: str, ref: date) -> tuple[str, list[tuple[str, date]], date | None]:
    """What the assistant found, its relative days made absolute and its days of the month
    given their year, as a user's sentence is ("finished by Friday 23 September
    (2033-09-23)"), so that its dates read and compare like every other line's; with the day
    it is about (None when it names none)."""
    found = _days_with_month(clean, ref, None)
    dated, rel = resolve_relative(clean, ref, by_clause=True, given=_placed(clean, found))
    said = sorted(rel + found, key=lambda pd: clean.lower().find(pd[0].lower()))
    return _with_years(dated, found), rel, _moved_to(clean, said) if said else None


def _days_with_month(clean: str, ref: date, order: str | None) -> list[tuple[str, date]]:
    """The days a sentence gives with their month ("3 March", "31/05/2037", "4.6."), each
    with its year (`order`: how the conversation writes numeric dates)."""
    found = absolute_dates(clean, ref, by_clause=True)
    if "/" in clean or re.search(r"\d\.\d", clean):
        found += numeric_dates(clean, ref, order)
    return found


def _placed(clean: str, days: list[tuple[str, date]]) -> list[tuple[int, date]]:
    """Each day said, by where in the sentence it is said (what `resolve_relative` is given)."""
    return [(clean.lower().find(phrase.lower()), d) for phrase, d in days]


def record_findings(lines: list[str], time: str, directory: Directory) -> list[Sentence]:
    """A tool result's records as what the assistant found: kept like its findings, when
    the user does not turn them down."""
    out = []
    for raw in lines:
        clean, found = mask(raw)
        dated, rel, when = _dated(clean, message_date(time))
        s = Sentence(
            time=time, text=dated, dates=rel, speaker="the assistant", kinds=["finding"], raw=clean
        )
        s.when = when
        if found:
            _withhold(s, raw, found)
        find_entities(s, clean, directory)
        s.statement = restate(s)
        out.append(s)
    return out


def _hour_of(time: str) -> float | None:
    """The hour of the day of an ISO 8601 message time, in the time zone that gives its date
    (`message_date`), None when it holds no time."""
    try:
        dt = datetime.fromisoformat(time.replace("Z", "+00:00"))
    except ValueError:
        return None
    if "T" not in time and " " not in time.strip():
        return None
    if dt.tzinfo is not None:
        dt = dt.astimezone(UTC)
    return dt.hour + dt.minute / 60


def read_sentence(
    time: str,
    raw: str,
    ref: date,
    directory: Directory,
    context: Context | None = None,
    *,
    speaker: str | None = None,
) -> Sentence:
    """One sentence said at `time` (on `ref`) read: secrets withheld, dates made absolute,
    a correction found, its kinds, the names in it and, given the session's `context`, the
    person its pronoun means."""
    clean, found = mask(raw)
    clean = spoken_figures(clean)
    if context is not None and speaker is None:
        clean = with_figures(
            clean, context.figures
        )  # "22.50 a month" the assistant wrote as £22.50
    abs_dates = _days_with_month(clean, ref, context.date_order if context else None)
    anchors = context.dates if context is not None else None
    given = _placed(clean, abs_dates)
    text, rel = resolve_relative(
        clean,
        ref,
        by_clause=True,
        anchors=anchors,
        given=given,
        remembered=context.remembered if context is not None else None,
        hour=_hour_of(time),
    )
    if context is not None and (
        (restated := context.restated.get(raw)) or raw in context.restated_elsewhere
    ):
        text, rel = _as_restated(
            text, rel, restated or [], ref, context.restated_elsewhere.get(raw)
        )
    if context is not None and speaker is None:
        if weekly_heading(clean):
            context.weekly_at = time  # the lines after it set out a week that repeats
        elif context.weekly_at == time:
            text, rel = weekly_line(text, rel)
    if anchors is not None:
        session_dates(anchors, clean, rel + abs_dates)
    text = _with_years(text, abs_dates)
    s = Sentence(time=time, text=text, dates=rel, speaker=speaker or "the user", raw=clean)
    if found:
        _withhold(s, raw, found)
    all_dates = sorted(rel + abs_dates, key=lambda pd: clean.lower().find(pd[0].lower()))
    if all_dates:
        s.when = _moved_to(clean, all_dates)
    s.correction = correction_of(clean)
    _classify(s, clean, ref, speaker=speaker)
    if "date" in s.kinds and speaker is None and _day_denied(clean, all_dates, s.when):
        # "the van is not coming on Friday": no day of something to come; the line is kept
        # as said
        s.kinds.remove("date")
        if not s.kinds:
            s.kinds.append("statement")
    if not s.kinds and not speaker and labelled_value(clean, directory.known_person_names()):
        s.kinds.append("statement")  # "Dentist - Dr Okafor": kept as "Dentist: Dr Okafor"
        s.statement = as_line(s.text)
    find_entities(s, clean, directory, speaker=speaker)
    if context is not None:
        _firm_by_kind(s, clean, context)
    if speaker and speaker != "the user":
        directory.person(speaker)
        if FIRST_PERSON.search(clean) or not s.people:
            s.subject = speaker
        if speaker not in s.people:
            s.people.insert(0 if s.subject == speaker else len(s.people), speaker)
    # "She's in the spare room and Rosa's booked the inn": two people's facts in one, the
    # pronoun not Rosa and neither line sure to be whose: kept on the session's notes as said
    mixed = another_subject(clean)
    said = s.text
    if context is not None:
        resolve_pronouns(s, clean, context)
    if mixed:
        s.subject, s.text = None, said
        s.kinds.append("unsure-subject")
    elif (
        context is not None
        and not speaker
        and not s.kinds
        and s.subject is None
        and not s.people
        and lang.said_of_someone(clean)
    ):
        # "She loved the spa." with nobody sure to be "she": kept on the notes as said, the
        # pronoun left as it is, rather than dropped or put on a guessed person's page
        s.kinds += ["statement", "unsure-subject"]
    if s.roles or s.relation:
        s.kinds.append("role")
    return s


#: "the hospice", "the bakery": an organisation said by a common noun after "the".
_THE_KIND = re.compile(r"\bthe\s+(?P<kind>[a-z]{3,})\b")


def _firm_by_kind(s: Sentence, clean: str, context: Context) -> None:
    """ "The money goes to the hospice" after "… for Larkfield Hospice": an organisation said
    by the last word of its name, in lower case after "the", when exactly one organisation
    the session named ends on that word and the sentence names none. Its name is written in
    brackets after the words ("the hospice (Larkfield Hospice)", as a role is) and the line
    is filed with it. The organisations the sentence names are remembered for later ones."""
    named = s.others.get("organisations", [])
    if not named and context.firms and "the " in clean:
        for m in _THE_KIND.finditer(clean):
            firms = context.firms.get(m.group("kind"))
            if not firms or len(firms) != 1:
                continue
            firm = next(iter(firms))
            said = m.group(0)
            at = re.search(rf"(?<![\w'’]){re.escape(said)}(?![\w'’-])(?!\s*\()", s.text)
            if at is None:
                continue
            s.text = f"{s.text[: at.end()]} ({firm}){s.text[at.end() :]}"
            s.others.setdefault("organisations", []).append(firm)
            break
    for firm in named:
        words = firm.split()
        if len(words) >= 2 and words[-1][:1].isupper():
            context.firms.setdefault(words[-1].lower(), set()).add(firm)


def _as_restated(
    text: str,
    rel: list[tuple[str, date]],
    restated: list[date],
    ref: date,
    further: list[date] | None = None,
) -> tuple[str, list[tuple[str, date]]]:
    """A bare weekday of a sentence ("second viewing on Saturday") read as the day of that
    name the assistant's reply restating the sentence gives explicitly ("Saturday 9 March"),
    when it is a different one within a week of the day said: the reply read what the user
    meant, where the tense of the sentence around it may not tell."""
    out = []
    further = further or []
    for phrase, d in rel:
        # a bare weekday only: "last Saturday", "next Saturday" say which one themselves
        day = next(
            (w for w in lang.WEEKDAYS if re.fullmatch(rf"(?:on\s+)?{w}", phrase.strip(), re.I)),
            None,
        )
        fits = [
            x
            for x in restated
            if day is not None
            and x.weekday() == lang.WEEKDAYS.index(day)
            and x != d
            and abs((x - ref).days) <= 7
        ]
        if len(fits) == 1 and d not in restated:
            new = fits[0]
            text = text.replace(f"{phrase} ({d.isoformat()})", f"{phrase} ({new.isoformat()})", 1)
            d = new
        elif (
            day is not None
            and d not in further
            and any(x.weekday() == lang.WEEKDAYS.index(day) and x != d for x in further)
        ):
            # the reply gives that weekday a day further off ("Friday at eight" of a do the
            # reply dates Friday 14 October, weeks away): which one is unsure, so the
            # weekday is left as said, undated, rather than dated wrongly
            text = text.replace(f"{phrase} ({d.isoformat()})", phrase, 1)
            continue
        out.append((phrase, d))
    return text, out


def _with_years(text: str, dates: list[tuple[str, date]]) -> str:
    """`text` with each month-day date said without its year followed by the absolute date
    it means: "delivered on June 3 (2027-06-03)"; one said with its year too, so every date
    of a page reads the same way: "24 March 2028 (2028-03-24)"."""
    for phrase, d in dates:
        at = text.find(phrase)
        while at >= 0 and re.match(r"\s*\(\d{4}-", text[at + len(phrase) :]):
            at = text.find(phrase, at + 1)  # a day said twice: the next time it is said
        if at < 0 or re.match(r"\s*\((?:\d{4}-|week|weekend)", text[at + len(phrase) :]):
            continue  # its date said already; "(same place, same time)" says none
        end = at + len(phrase)
        if phrase.endswith(".") and not text[end:].strip()[:1].islower():
            end -= 1  # "on 19 Feb.": the full stop ends the sentence, not the month's name
        if year := re.match(r",?\s*\d{4}\b", text[end:]):
            if str(d.year) not in year.group():
                continue
            end += year.end()
        text = f"{text[:end]} ({d.isoformat()}){text[end:]}"
    return text


def _withhold(s: Sentence, raw: str, found: list[Secret]) -> None:
    """A sentence that held a secret: kept as a statement that one was shared, and where
    the speaker said it is kept, never the secret itself. The note names no kind (the marker
    does): a word for a credential in it would make the detector, when the page is masked
    again, read a model number earlier in the line as that credential."""
    where = secret_location(raw)
    s.secrets = [x.kind for x in found]
    s.kinds.append("secret")
    statement = restate(s).rstrip(".")
    s.statement = (
        f"{statement} (a secret was shared here and is not kept"
        + (
            f"; {s.speaker} said it is kept {where.rstrip('.')}"
            if where and where not in statement
            else ""
        )
        + ")."
    )


#: A reply that only takes in what was said: "ah ok.", "oh I see!", "right.".
_TAKEN_IN = re.compile(
    r"^\W*(?:ah|oh|ok|okay|right|i\s+see|got\s+it|hm+|huh)(?:[\s,]+(?:ok|okay|i\s+see|right|"
    r"then|yes|yeah))*\W*$",
    re.I,
)


#: A day with a slash after a word that dates what it goes with: "on 3/2", "due 5/6".
_UNDECIDED_DAY = re.compile(
    r"\b(?:on|by|until|till|from|due|before|after)\s+\d{1,2}/\d{1,2}(?![/\d])", re.I
)


def _classify(s: Sentence, clean: str, ref: date, *, speaker: str | None) -> None:
    """The kinds of statement `s` is: a correction, or any of decision, remember,
    preference, rule, health, setup, leaving, date; a plain statement worth keeping when
    the user said it with no trigger word; and a change when it replaces a liking or a
    decision."""
    if s.correction:
        s.kinds.append("correction")
    else:
        if _DECISION.search(clean):
            s.kinds.append("decision")
        if _REMEMBER.search(clean):
            s.kinds.append("remember")
        said_of_someone = lang.THIRD_PREFERENCE.search(clean) and not FIRST_PERSON.search(clean)
        if (
            _PREFERENCE.search(clean)
            and not (s.dates and not re.search(r"prefer|like|love", clean, re.I))
            or re.search(r"\b(?:i'd|i\s+would)\s+rather\b", clean, re.I)
            or said_of_someone
        ):
            s.kinds.append("preference")
        if lang.RULE.search(clean) and "preference" not in s.kinds:
            s.kinds.append("rule")
        if lang.HEALTH.search(clean):
            s.kinds.append("health")
        if _SETUP.search(clean) and not s.kinds:
            s.kinds.append("setup")
        if lang.LEAVING.search(clean):
            s.kinds.append("leaving")
        if (
            s.when is not None
            and s.when > ref
            and (
                len(clean.split()) >= 5
                # "dentist on friday": a verbless note of a thing on a day to come
                or (not speaker and lang.dated_note(clean, [p for p, _ in s.dates]))
            )
        ):
            s.kinds.append("date")
        if not s.kinds and not speaker and lang.worth_keeping(clean):
            s.kinds.append("statement")  # said plainly, no trigger word: kept as said
        elif (
            not s.kinds
            and not speaker
            and s.when is None
            and _UNDECIDED_DAY.search(clean)
            and not clean.rstrip().endswith("?")
        ):
            # "Car insurance review appointment on 3/2 at the broker office": a verbless note of
            # a day whose order ("3 February" or "2 March") nothing says, too long to pass
            # for a fragment; kept as said, undated, as it would be with its day read
            s.kinds.append("statement")
    if lang.CHANGE.search(clean) and ({"preference", "decision"} & set(s.kinds)):
        s.kinds.append("change")


def restate(s: Sentence) -> str:
    """The sentence as a statement about its subject, third person, dates made absolute."""
    text = re.sub(
        r"^(?:(?:and|also|oh|so|but|plus|btw|fyi|please|quick\s+note|anyway|yes|ok|okay|sure|then|"
        r"actually|in\s+fact|correction(?:\s+(?:on|about|to))?)"
        r"[,:]?\s+)*"
        r"(?:(?:remember|note|keep\s+in\s+mind)(?:\s+that)?[,:]?\s+|"
        # "make a note that …", "put down that …": the request to keep it, not what it says
        r"(?:(?:make|take)\s+a\s+note|put\s+down|write\s+down|jot\s+down|note\s+down)"
        r"\s+that[,:]?\s+)?",
        "",
        s.text,
        flags=re.I,
    )
    if s.speaker == "the assistant":
        return lang.assistant_third_person(text)
    said = lang.third_person(text, s.speaker)
    label = f"{s.speaker}: "
    if said.startswith(label + s.speaker + " ") or said.startswith(label + s.speaker + "'"):
        return said[len(label) :]  # "Gosia: Gosia can do the evenings": the label said twice
    return said


def _later_value_of(s: Sentence, sentences: list[Sentence], turn: Turn) -> Sentence | None:
    """The earlier sentence of the session, by the same speaker, that `s` gives a later value
    for the same thing (`supersession`): "the MOT was booked for the 12th" before "so it's now
    the 19th instead". The records of one pasted block are side by side, never one later."""
    if not s.kinds or s.speaker == "the assistant" or raw_row(s, turn):
        return None
    earlier = [
        t
        for t in sentences
        if t is not s and t.speaker == s.speaker and t.raw and not raw_row(t, turn)
    ]
    texts = [t.statement or t.text for t in earlier]
    found = supersession.replaced_earlier(
        s.statement or s.text, texts, said_on=message_date(s.time)
    )
    return None if found is None else earlier[found]


_ISO_DAY = re.compile(r"\((\d{4}-\d{2}-\d{2})\)")


def _shifted_in_session(s: Sentence, sentences: list[Sentence], turn: Turn) -> Sentence | None:
    """The earlier sentence of the session whose day `s` moves by a count and names no day
    of its own ("the tasting is pushed back a week" after "the tasting is on the 9th"): the
    one sentence of the same speaker, not a record of a pasted block, with one day still to
    come that shares a word with the thing the clause moves. `s` gets the new day written
    after the count ("a week (…)"); None, and `s` as said, when no sentence or several fit."""
    if not s.kinds or s.speaker == "the assistant" or s.dates or raw_row(s, turn):
        return None
    text = s.statement or s.text
    low = text.lower()
    if "day" not in low and "week" not in low and "fortnight" not in low:
        return None  # the cheap test: no count of days or weeks to move by
    moves = [m for m in shifts.shifts(text) if m.moved and not _ISO_DAY.search(m.clause)]
    if len(moves) != 1 or _ISO_DAY.search(text):
        return None
    words = shifts.shift_words(moves[0].clause)
    said_on = message_date(s.time)
    fits = []
    for t in sentences:
        if t is s or t.speaker != s.speaker or raw_row(t, turn):
            continue
        days = {date.fromisoformat(d) for d in _ISO_DAY.findall(t.statement or t.text)}
        if len(days) != 1 or min(days) < said_on:
            continue
        if words & supersession.thing_words(t.statement or t.text):
            fits.append((t, min(days)))
    if len(fits) != 1:
        return None
    old, day = fits[0]
    before = day - timedelta(days=moves[0].days)
    if any(
        {before.isoformat(), day.isoformat()} <= set(_ISO_DAY.findall(t.statement or t.text))
        for t in sentences
    ):
        return None  # "changed from 6 May to 20 May … moving it two more weeks": said already
    new = day + timedelta(days=moves[0].days)
    count = moves[0].said
    if not count or count not in s.text:
        return None
    dated = f"{count} ({new.isoformat()})"
    s.text = s.text.replace(count, dated, 1)
    if s.statement:
        s.statement = s.statement.replace(count, dated, 1)
    s.dates = [*s.dates, (count, new)]
    s.when = s.when or new
    return old


def _edited_to(old: Sentence, s: Sentence, sentences: list[Sentence]) -> Sentence | None:
    """A copy of `old`, which `s` gives a later value of, with that value edited in place
    when `old` said more than it ("Fees are £1,450/month, starting 7 April" before "the start
    is 14 April": the fee stays current), or None when it cannot be edited alone."""
    earlier = [t.statement or t.text for t in sentences if t is not s and t.speaker == s.speaker]
    before = earlier[-1] if earlier else ""
    text, said_on = s.statement or s.text, message_date(s.time)
    shown = supersession.edited_in_session(text, old.text, before=before, said_on=said_on)
    if shown is None:
        return None
    statement = old.statement
    if statement and statement != old.text:
        written = supersession.edited_in_session(text, statement, before=before, said_on=said_on)
        if written is None:
            return None
        statement = written[0]
    edited, rep = shown
    dates, when = old.dates, old.when
    if rep.kind == "date":
        was, now = date.fromisoformat(rep.old.norm), date.fromisoformat(rep.new.norm)
        dates = [(phrase, now if d == was else d) for phrase, d in old.dates]
        when = now if old.when == was else old.when
    return replace(
        old, text=edited, statement=statement, dates=dates, when=when, replaces=[], supersedes=[]
    )


def _lacked_of(s: Sentence, sentences: list[Sentence], turn: Turn) -> Sentence | None:
    """The earlier sentence of the session, by the same speaker, that gave the thing `s` says
    was lacking when another was had instead (`supersession.lacked_line`), or None."""
    if not s.kinds or s.speaker == "the assistant":
        return None
    earlier = [t for t in sentences if t is not s and t.speaker == s.speaker and t.raw]
    found = supersession.lacked_line(s.raw or s.text, [t.raw for t in earlier])
    return None if found is None else earlier[found]


def _takes_place_of(s: Sentence, old: Sentence) -> None:
    """A later value that names nothing of its own to be about ("so it's £420 now" after "the
    quote from Harlow Roofing is £380") is of what the line it replaces was about: it goes on
    that line's page, where the old value stood."""
    if s.subject or s.people or s.projects or s.topics or any(s.others.values()):
        return
    s.subject = old.subject
    s.people = [*old.people]
    s.projects = [*old.projects]
    s.topics = [*old.topics]
    s.others = {kind: [*names] for kind, names in old.others.items()}


def raw_row(s: Sentence, turn: Turn) -> bool:
    """Whether `s` is a record of a pasted table, CSV or JSON of `turn`."""
    return bool(s.raw) and s.raw in turn.rows
