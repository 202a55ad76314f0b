-- Record what the request that appended a keyed entry answered, ending its in-flight lease.
-- KEYS[1] idempotency hash; ARGV[1] key, ARGV[2] version the key answered, ARGV[3] the short answer
-- (see append.lua for the record's layout)
local record = redis.call('HGET', KEYS[1], ARGV[1])
if not record then
  return 0
end
local fingerprint, version = string.match(record, '^(%S+) (%d+)')
if version ~= ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], fingerprint .. ' ' .. version .. ' =' .. ARGV[3])
return 1
