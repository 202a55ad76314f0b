"""The answer of `POST /battles/{id}/previews` (rules/preview.py computes it)."""

from __future__ import annotations

from marshmallow import fields

from schemas.base import described
from schemas.views import ViewSchema


class PreviewSchema(ViewSchema):
    exact = fields.Boolean(
        required=True, **described("every dice path walked (sums as one branch), else sampled")
    )
    samples = fields.Integer(required=True, **described("paths walked, or samples drawn (2,000)"))
    status = fields.Dict(
        keys=fields.String(), values=fields.Float(), required=True, **described("applied / rejected → p")
    )
    reasons = fields.Dict(
        keys=fields.String(), values=fields.Float(), required=True, **described("reason code → p")
    )
    fields_ = fields.Dict(
        data_key="fields",
        required=True,
        **described(
            "result field (dotted path) → distribution: categorical {kind, p: value → p, se?} or numeric "
            "{kind, p, null, min, mean, max, percentiles, histogram: [{from, to, p}], mean_se?}"
        ),
    )
