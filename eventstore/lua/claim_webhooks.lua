-- Claim a delivery job for each webhook not claimed within its claim's time to live, nor failed.
-- KEYS[1] webhooks, [2] claims, [3] progress; ARGV[1] ttl (ms), ARGV[2..] webhook ids (none: every one)
-- Returns the ids claimed now.
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local ids = {}
if #ARGV > 1 then
  for i = 2, #ARGV do
    if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then
      ids[#ids + 1] = ARGV[i]
    end
  end
else
  ids = redis.call('HKEYS', KEYS[1])
end
local claimed = {}
for _, id in ipairs(ids) do
  local until_ms = tonumber(redis.call('HGET', KEYS[2], id) or '0')
  local progress = redis.call('HGET', KEYS[3], id)
  local failed = progress and cjson.decode(progress).failed == true
  if until_ms <= now_ms and not failed then
    redis.call('HSET', KEYS[2], id, now_ms + tonumber(ARGV[1]))
    claimed[#claimed + 1] = id
  end
end
return claimed
