-- Append one log entry atomically (DESIGN §3, §4.1-4.3): exists, idempotency, expected version, chain link, write.
-- KEYS[1] log stream, KEYS[2] idempotency hash; optional KEYS[3] pending set, KEYS[4] scheduled flag
-- (single node only: they are not hash-tagged), which mark the battle pending in the same round trip.
-- ARGV[1] expected version ("" = any), ARGV[2] idempotency key ("" = none), ARGV[3] fingerprint,
-- ARGV[4] prev version the hash was computed on, ARGV[5] prev hash, ARGV[6] new entry ID "0-<v>",
-- ARGV[7] new version, ARGV[8] new hash, ARGV[9] battle id, ARGV[10] scheduled flag TTL (ms),
-- ARGV[11] the stream field/value pairs as one JSON array (one argument is cheaper to send than 18)
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then
  return {'unknown'}
end
local current = tonumber(string.sub(last[1][1], 3))
local fields = last[1][2]
local head_hash = ''
for i = #fields - 1, 1, -2 do
  if fields[i] == 'hash' then
    head_hash = fields[i + 1]
    break
  end
end

if ARGV[2] ~= '' then
  local record = redis.call('HGET', KEYS[2], ARGV[2])
  if record then
    local seen = cjson.decode(record)
    if seen.f == ARGV[3] then
      return {'replayed', seen.v, seen.h}
    end
    return {'mismatch', seen.v}
  end
end

if ARGV[1] ~= '' and tonumber(ARGV[1]) ~= current then
  return {'conflict', current}
end

-- Python hashed against its cached head; if that head is stale, hand back the real one to rehash.
if tonumber(ARGV[4]) ~= current or ARGV[5] ~= head_hash then
  return {'moved', current, head_hash}
end

redis.call('XADD', KEYS[1], ARGV[6], unpack(cjson.decode(ARGV[11])))
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[2], ARGV[2], cjson.encode({f = ARGV[3], v = ARGV[7], h = ARGV[8]}))
end
local enqueue = 0
if #KEYS == 4 then
  redis.call('SADD', KEYS[3], ARGV[9])
  if redis.call('SET', KEYS[4], '1', 'NX', 'PX', ARGV[10]) then
    enqueue = 1
  end
end
return {'ok', enqueue}
