"""HTTP plumbing every endpoint shares: body reading, JSON in and out, CORS, problems, ETags, access logs."""
