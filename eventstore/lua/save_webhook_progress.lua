-- Store a webhook's progress and log one attempt, only while the webhook is registered and no recovery
-- came after the caller read its progress (the epoch it read is still the stored one).
-- KEYS[1] webhooks, [2] progress, [3] attempts; ARGV[1] id, [2] progress JSON, [3] attempt JSON or '',
-- [4] attempts kept, [5] the epoch the caller read
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
local stored = redis.call('HGET', KEYS[2], ARGV[1])
if stored and (tonumber(cjson.decode(stored).epoch) or 0) ~= tonumber(ARGV[5]) then
  return 0
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('LPUSH', KEYS[3], ARGV[3])
  redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[4]) - 1)
end
return 1
