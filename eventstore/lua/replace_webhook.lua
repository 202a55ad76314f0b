-- Replace a webhook's registration if its secret is still the one the caller read (so two rolls at once
-- cannot both win), and log one line of its deliveries.
-- KEYS[1] webhooks, [2] attempts; ARGV[1] id, [2] the secret read, [3] registration JSON, [4] line JSON or
-- '', [5] lines kept
local stored = redis.call('HGET', KEYS[1], ARGV[1])
if not stored or cjson.decode(stored).secret ~= ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if ARGV[4] ~= '' then
  redis.call('LPUSH', KEYS[2], ARGV[4])
  redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[5]) - 1)
end
return 1
