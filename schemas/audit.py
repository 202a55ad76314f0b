"""The wire contract of replay jobs and the audit: what `/replays` takes and answers, what `/audit` says."""

from __future__ import annotations

from marshmallow import fields

from schemas.base import StrictSchema, described, one_of
from schemas.views import HASH, ViewSchema


class ReplayRequestSchema(StrictSchema):
    mode = one_of(
        "rebuild",
        "verify",
        required=True,
        **described("rebuild: drop and refold the derived keys; verify: compare them with a fresh replay"),
    )


class ReplayJobSchema(ViewSchema):
    job_id = fields.String(required=True)
    mode = one_of("rebuild", "verify", required=True)
    status = one_of("queued", "started", "finished", "failed", required=True)
    result = fields.Dict(allow_none=True, required=True, **described("the job's answer once finished"))
    error = fields.String(allow_none=True, required=True, **described("why the job failed"))


class ChainCheckSchema(ViewSchema):
    ok = fields.Boolean(required=True)
    checked = fields.Integer(required=True, **described("entries whose link and hash hold"))
    head_version = fields.Integer(required=True, **described("the last version that checked out"))
    head_hash = fields.String(required=True, metadata=HASH)
    broken_at = fields.Integer(allow_none=True, required=True, **described("the first bad version"))
    reason = one_of("version_gap", "prev_hash_mismatch", "hash_mismatch", allow_none=True, required=True)


class DifferenceSchema(ViewSchema):
    version = fields.Integer(required=True)
    what = fields.String(required=True, **described("`outcome` (rules drift), `missing` or `fold_failed`"))


class ReplayCheckSchema(ViewSchema):
    ok = fields.Boolean(required=True)
    compared = fields.Integer(required=True, **described("stored outcomes compared byte for byte"))
    pending = fields.Integer(required=True, **described("versions not projected yet, so not compared"))
    first_difference = fields.Nested(DifferenceSchema, allow_none=True, required=True)
    skipped = fields.Boolean(
        required=True, **described("not replayed: the battle's rules version is not one this release folds")
    )


class DiceMismatchSchema(ViewSchema):
    version = fields.Integer(required=True)
    slot = fields.String(required=True)
    n = fields.Integer(required=True, **described("the stream die's index within its version"))
    die = fields.String(required=True)
    value = fields.Integer(required=True, **described("as stored"))
    expected = fields.Integer(allow_none=True, required=True, **described("recomputed from the seed"))


class DiceCheckSchema(ViewSchema):
    verifiable = fields.Boolean(required=True, **described("false until `conclude` reveals the seed"))
    commitment_ok = fields.Boolean(allow_none=True, required=True, **described("sha256(seed) = commitment"))
    checked_rolls = fields.Integer(required=True)
    mismatches = fields.List(fields.Nested(DiceMismatchSchema), required=True)


class UndoListedSchema(ViewSchema):
    version = fields.Integer(required=True, **described("the undo"))
    undone_version = fields.Integer(required=True, **described("the command it cancelled"))
    discarded_rolls = fields.List(
        fields.Dict(), allow_none=True, required=True, **described("the cancelled outcome's rolls")
    )


class RegressionSchema(ViewSchema):
    acknowledged_version = fields.Integer(required=True, **described("a head the service had acknowledged"))
    acknowledged_hash = fields.String(required=True, metadata=HASH)
    found_version = fields.Integer(required=True, **described("the head the log had instead, behind it"))
    found_hash = fields.String(required=True, metadata=HASH)
    at = fields.String(required=True, **described("when an append saw it (UTC, RFC 3339)"))


class AuditSchema(ViewSchema):
    ok = fields.Boolean(
        required=True, **described("the chain, the replay and (when verifiable) the dice hold")
    )
    status = one_of(
        "ok",
        "failed",
        "regressed",
        "unsupported",
        required=True,
        **described(
            "`unsupported`: the chain and dice hold, but the battle's rules version is not one this release "
            "folds, so it was not replayed (never a difference); `failed`: a check does not hold; "
            "`regressed`: the checks hold, but the store lost commands it had acknowledged (`regressions`)"
        ),
    )
    ruleset = fields.String(required=True)
    rules_version = fields.String(
        allow_none=True, required=True, **described("the rules version `battle_created` pinned")
    )
    supported = fields.List(
        fields.String(),
        required=True,
        **described("the ruleset's rules versions this release folds exactly as recorded"),
    )
    head_version = fields.Integer(required=True, **described("the log head when the audit began"))
    audited_upto = fields.Integer(required=True, **described("the last version audited"))
    truncated = fields.Boolean(required=True, **described("the log is longer than SIEGE_AUDIT_MAX_ENTRIES"))
    chain = fields.Nested(ChainCheckSchema, required=True)
    replay = fields.Nested(ReplayCheckSchema, required=True)
    dice = fields.Nested(DiceCheckSchema, required=True)
    undos = fields.List(
        fields.Nested(UndoListedSchema), required=True, **described("every applied undo, in log order")
    )
    regressions = fields.List(
        fields.Nested(RegressionSchema),
        required=True,
        **described(
            "each time an append found the log's head behind one the service had acknowledged (lost to a "
            "store failover or crash); the versions after `found_version` were written again"
        ),
    )
