-- Keep a token record under its digest, only for a battle that exists, and only while the battle has fewer
-- live tokens (not revoked, not expired) than its cap: minting tokens must not multiply a GM's budgets.
-- KEYS[1] log stream, KEYS[2] tokens hash; ARGV[1] token digest, ARGV[2] token record JSON, ARGV[3] the cap
-- of live tokens (0: none), ARGV[4] now, as the records write `expires_at` (UTC ISO 8601, so comparable
-- as text). Returns 1 kept, 0 no such battle, {live} past the cap.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
local cap = tonumber(ARGV[3])
if cap > 0 then
  local live = 0
  for _, raw in ipairs(redis.call('HVALS', KEYS[2])) do
    local record = cjson.decode(raw)
    local expires = record.expires_at
    if not record.revoked and (type(expires) ~= 'string' or expires > ARGV[4]) then
      live = live + 1
    end
  end
  if live >= cap then
    return {live}
  end
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
