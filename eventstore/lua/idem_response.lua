-- Record the response of the request that appended a keyed entry, ending its in-flight lease.
-- KEYS[1] idempotency hash; ARGV[1] key, ARGV[2] version the key answered, ARGV[3] response JSON
local record = redis.call('HGET', KEYS[1], ARGV[1])
if not record then
  return 0
end
local seen = cjson.decode(record)
if tostring(seen.v) ~= ARGV[2] then
  return 0
end
seen.r = ARGV[3]
seen.l = nil
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(seen))
return 1
