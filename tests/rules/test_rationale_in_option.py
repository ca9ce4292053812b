"""rationale-in-option: commentary appended to an option (why it tempts, why it is wrong) is caught, in words the
rule's own lists do not spell out; sentences that state the answer are not commentary. Hand-made held-out items,
written apart from the rule's own examples."""
from __future__ import annotations

import pytest
from helpers import fired, lint_text, question

from qlint.finding import Severity

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


def test_commentary_on_the_key_is_caught(registry):
    rule = "rationale-in-option"
    text = question("Which doctrine binds lower courts to the decisions of higher courts?",
                    [("Stare decisis - this is a common misconception", True), ("Res judicata", False),
                     ("Habeas corpus", False)])
    assert rule in {f.rule for f in lint_text(text, registry, extend=[rule])}
