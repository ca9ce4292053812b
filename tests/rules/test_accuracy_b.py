"""Held-out style cases for the cue and commentary rules: hand-made items written apart from the rules' own examples.

Commentary appended to a distractor is caught by rationale-in-option; clean items, including short option lists of
format names, get no warning or error from the default rules; messages quote words as written.
"""
from __future__ import annotations

import pytest
from helpers import fired, lint_text, question

from qlint.finding import Severity

# ---- rationale-in-option: commentary in a distractor ------------------------------------------------------------

KEY = ("Turn on versioning for the bucket", True)
STEM = "An analyst deleted objects from a storage bucket by mistake. Which setting lets them be restored?"
COMMENTARY = [
    "Enable server-side encryption. This sounds plausible because encryption protects data.",
    "Add a lifecycle rule. Teams often pick this because lifecycle rules manage old objects.",
    "Turn on access logging, which is wrong because logs only record requests.",
    "Replicate the bucket to another region -- incorrect: deletions are replicated too.",
    "Make the bucket public. This would be dangerous if true.",
    "Use a larger storage class. It may seem tempting, but classes only change price.",
    "Block public access. Incorrect: blocking access does not keep deleted objects.",
    "Require MFA for sign-in. Many candidates choose this because MFA sounds protective.",
    "Encrypt with a customer key; this seems right since keys protect objects.",
    "Tag every object (a common trap: tags carry no history)",
    "Switch to a cold storage tier. This is a tempting distractor for cost questions.",
    "Add a bucket policy, which is incorrect.",
    "Copy the objects nightly. This option sounds right, but copies are deleted too.",
    "Use object lock. This is a distractor.",
    "Enable transfer acceleration. (Correct answer.)",
    "Mirror the bucket, which is a common misconception about backups.",
    "Keep a manifest. This would only be true if the manifest held the data.",
    "Compress the objects. Wrong! Compression keeps no history.",
    "Encrypt the bucket. Explanation: encryption hides data. Source: the storage guide.",
    # the class, in words the rule's own lists do not spell out: commentary that grants the option is real before
    # denying it fits, that judges its fit to the question, or that explains its pull on candidates
    "Use a delivery stream. Delivery streams are a genuine service, however they cannot bring objects back here.",
    "Record configuration changes. While recording does capture changes, it does not address the requirement.",
    "Add a NAT gateway. NAT gateways exist for outbound traffic, but they are not relevant here.",
    "Run an inspection service. Candidates often pick it because the name suggests inspecting objects.",
    "Move the objects to an archive tier. Its low price makes it attractive to newcomers, but retrieval takes hours.",
    "Route the requests elsewhere. It is a legitimate technique; it just does not apply to this question.",
    "Add a read replica. This one tricks people who remember that replicas copy data.",
    "Increase the bucket quota. It seems like the obvious fit, which is why test-takers choose it.",
    "Keep an audit trail. The trail is real and records every call, yet it is not what this scenario asks for.",
    "Use a web firewall. Many candidates confuse it with a backup service.",
]


@pytest.mark.parametrize("distractor", COMMENTARY, ids=[f"commentary-{i}" for i in range(len(COMMENTARY))])
def test_commentary_in_a_distractor_is_caught(distractor, registry):
    text = question(STEM, [KEY, (distractor, False), ("Shorten the retention period", False)])
    findings = [f for f in lint_text(text, registry) if f.rule == "rationale-in-option"]
    assert findings and all(f.severity is Severity.WARNING for f in findings)


# sentences that state the answer, not comment on it: the first sentence, outputs, people's choices as content
CONTENT = [
    "Restart the pod. This clears the in-memory cache.",
    "It returns undefined. That is the default return value.",
    "Enable MFA - this adds a second factor.",
    "The statement is false. It contradicts the premise.",
    "Users pick it from the dropdown. The list is sorted by name.",
    "Open the preview. It looks correct there, but the export is blank.",
    "Right-click the file (right pane) and choose Rename.",
    "It prints true. The comparison coerces both sides.",
    "Patients often choose this treatment because it is cheaper.",
    "Run npm start. The console shows: server running at http://localhost:3000",
    "Visit https://portal.azure.com and open the resource group.",
    "Source: the access log. Destination: a storage account.",
    "Store keys in the code. It is a tempting target for attackers.",
    "x == 1 (true) and y == 0 (false), so the branch runs once.",
    # content with a concession, a denial or people's beliefs in it: the answer's own sentences
    "Both acquire the lock, but one of them blocks when the mutex is not free.",
    "The title tag sits in the head, but not before the meta tags, so the crawler cannot read it.",
    "Everything that is fair is lawful, but some lawful acts are not fair.",
    "A balloon rises and sinks; it cannot steer east or west.",
    "Since some fans think the scores count minutes, the word might mean zero.",
    "Developers may create clusters, but they are not allowed to deploy to the existing ones.",
    "It runs on every upload, but a run must finish within 15 minutes.",
    "The first statement is true. The second one is not the right reading of the table.",
]


@pytest.mark.parametrize("option", CONTENT, ids=[f"content-{i}" for i in range(len(CONTENT))])
def test_content_sentences_are_not_commentary(option, registry):
    text = question("Which step fixes the problem?", [(option, True), ("Reinstall the tool", False)])
    assert fired(text, "rationale-in-option", registry) == []


# ---- clean items: no warning or error from the default rules -------------------------------------------------------

CLEAN = [
    ("Which format keeps fp32's exponent range in half the bits?",
     [("bf16", True), ("fp16", False), ("fp32", False), ("int8", False)]),
    ("Which number format does post-training quantization most often target for weights?",
     [("int8", True), ("fp16", False), ("bf16", False), ("fp32", False)]),
    ("What does the development tool print once it has bound its port?",
     [("server running at http://127.0.0.1:3000/", True), ("error: address 127.0.0.1:3000 in use", False),
      ("warning: no port given, using 3000", False)]),
    ("Which alert rule fires when the message backlog grows?",
     [("Metric source: queue. Metric name: depth.", True), ("Metric source: pool. Metric name: CPU time.", False),
      ("Metric source: disk. Metric name: reads.", False)]),
    ("Which collective leaves the summed gradients on every rank?",
     [("all-reduce", True), ("reduce-scatter with padding", False), ("broadcast", False), ("gather", False)]),
    ("What does a deadlock detector report?",
     [("A cycle of threads that may each wait for a lock another holds", True),
      ("Statistics about lock contention per thread", False), ("Threads that could run but wait for the scheduler", False)]),
    ("Which lipoprotein carries triglycerides from the liver to the tissues?",
     [("very low-density lipoprotein", True), ("high-density lipoprotein", False), ("chylomicron remnants", False)]),
    ("What does fsync guarantee once it returns?",
     [("Every write made before the call is on stable storage", True),
      ("Writes are not always visible to other processes", False), ("The file stays locked until closed", False)]),
    ("Checkpointing activations lowers the peak memory of a training step.",
     [("True", True), ("False", False)]),
    ("Why does stochastic rounding help low-precision training?",
     [("Small updates survive on average. Each rounding is random but unbiased.", True),
      ("Gradients get larger. The optimizer then takes bigger steps.", False),
      ("Weights stay in fp32. The rounding is skipped for them.", False)]),
]


# option-order reads "fp16", "int8" as the numbers 16 and 8: a finding of that rule, not of the ones tested here
ELSEWHERE = ("option-order",)


@pytest.mark.parametrize("stem,options", CLEAN, ids=[f"clean-{i}" for i in range(len(CLEAN))])
def test_clean_items_get_no_warning_or_error(stem, options, registry):
    loud = [f"{f.rule}: {f.message}" for f in lint_text(question(stem, options), registry)
            if f.severity in (Severity.WARNING, Severity.ERROR) and f.rule not in ELSEWHERE]
    assert loud == []


OURS = ("rationale-in-option", "vague-terms", "absolute-terms", "unfocused-stem", "option-length",
        "stem-option-overlap")


@pytest.mark.parametrize("stem,options", CLEAN, ids=[f"clean-ours-{i}" for i in range(len(CLEAN))])
def test_clean_items_get_nothing_from_the_cue_rules(stem, options, registry):
    text = question(stem, options)
    assert [(rule, fired(text, rule, registry)) for rule in OURS if fired(text, rule, registry)] == []


# ---- messages quote words as written --------------------------------------------------------------------------------

def test_overlap_message_quotes_the_key_as_written(registry):
    text = question("Which layer caches activations between steps?",
                    [("a layer that caches activations", True), ("the optimizer", False), ("the data loader", False)])
    [message] = fired(text, "stem-option-overlap", registry)
    assert '"caches"' in message and '"activations"' in message
    assert "(cach" not in message and "activ," not in message and "activ)" not in message


def test_extraneous_info_message_quotes_the_stem_as_written(registry):
    text = question("Caching helps. Which caching layer is fastest?", [("L1", True), ("L2", False), ("L3", False)])
    [message] = fired(text, "extraneous-info", registry)
    assert '"Caching"' in message and "cach," not in message and "cach;" not in message


# ---- cue rules: the false-alarm classes stay quiet, true cues still fire ----------------------------------------------

def test_among_names_only_a_key_that_is_a_statement_is_a_length_cue(registry):
    # a longer name among names is how the names are; a qualified statement among names is the cue
    long_name = [("Leaky rectified linear", True), ("tanh", False), ("GELU", False), ("ReLU", False)]
    assert fired(question("Which activation keeps a small slope for negative inputs?", long_name),
                 "option-length", registry) == []
    statement = [("A rectifier that keeps a small slope for negative inputs", True), ("tanh", False),
                 ("GELU", False), ("Swish", False)]
    assert fired(question("Which activation suits sparse negative inputs best?", statement), "option-length",
                 registry)
    near_key = [("state-sponsored hackers", True), ("black hat hackers", False), ("hacktivists", False),
                ("competitors", False)]
    assert fired(question("Which attackers have the most resources?", near_key), "option-length", registry) == []


def test_combined_verdicts_are_still_an_unfocused_stem(registry):
    stem = "Checkpointing trades compute for memory. Checkpointing changes the gradients."
    verdicts = [("True, True", False), ("True, False", True), ("False, True", False), ("False, False", False)]
    assert fired(question(stem, verdicts), "unfocused-stem", registry)


def test_absolute_in_a_distractor_is_still_reported(registry):
    text = question("What does gradient checkpointing change?",
                    [("Peak activation memory", True), ("It always makes training faster", False),
                     ("Nothing at all in memory use", False)])
    assert fired(text, "absolute-terms", registry)


def test_examples_of_these_rules_are_valid_questions(registry):
    """A passing example that does not load (a comma in a flow mapping) passes for the wrong reason."""
    broken = [(rule.name, text.splitlines()[0]) for rule in registry if rule.name in OURS
              for text in (e.text for e in (*rule.valid, *rule.invalid))
              if any(f.rule in ("schema", "parse-error") for f in lint_text(text, registry))]
    assert broken == []
