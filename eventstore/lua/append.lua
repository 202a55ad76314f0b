-- Append one log entry atomically (DESIGN §3, §4.1-4.3): exists, idempotency, expected version, chain link, write.
-- KEYS[1] log stream, KEYS[2] idempotency hash, KEYS[3] idempotency expiry zset, KEYS[4] token hash;
-- optional KEYS[5] pending set, KEYS[6] scheduled flag (single node only: they are not hash-tagged), which
-- mark the battle pending in the same round trip.
-- ARGV[1] expected version ("" = any), ARGV[2] idempotency key ("" = none), ARGV[3] fingerprint,
-- ARGV[4] prev version the hash was computed on, ARGV[5] prev hash, ARGV[6] new entry ID "0-<v>",
-- ARGV[7] new version, ARGV[8] new hash, ARGV[9] battle id, ARGV[10] scheduled flag TTL (ms),
-- ARGV[11] the stream field/value pairs as one JSON array (one argument is cheaper to send than 18),
-- ARGV[12] how long the key's record is kept (ms), ARGV[13] how long it counts as in flight (ms),
-- ARGV[14] the digest of the token the command came with ("" = none): it must be stored and not revoked.
-- An idempotency record is {f fingerprint, v version, h hash, x expires (ms), l lease end (ms), r response}.
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then
  return {'unknown'}
end
-- the API may have judged the token on a remembered record; a revocation since then is seen here
if ARGV[14] ~= '' then
  local token = redis.call('HGET', KEYS[4], ARGV[14])
  if not token or cjson.decode(token).revoked then
    return {'token'}
  end
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

local now = 0
if ARGV[2] ~= '' then
  local clock = redis.call('TIME')
  now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
  local record = redis.call('HGET', KEYS[2], ARGV[2])
  if record then
    local seen = cjson.decode(record)
    if not seen.x or tonumber(seen.x) > now then  -- an expired record is as good as none
      if seen.f ~= ARGV[3] then
        return {'mismatch', seen.v}
      end
      if seen.r then
        return {'replayed', seen.v, seen.h, seen.r}
      end
      if seen.l and tonumber(seen.l) > now then
        return {'inflight', seen.v}
      end
      return {'replayed', seen.v, seen.h}
    end
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
  local expires = now + tonumber(ARGV[12])
  local record = {f = ARGV[3], v = ARGV[7], h = ARGV[8], x = expires, l = now + tonumber(ARGV[13])}
  redis.call('HSET', KEYS[2], ARGV[2], cjson.encode(record))
  redis.call('ZADD', KEYS[3], expires, ARGV[2])
  -- prune a few expired records per keyed append, so the hash stays as small as the retention says
  local stale = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 16)
  for _, key in ipairs(stale) do
    redis.call('HDEL', KEYS[2], key)
    redis.call('ZREM', KEYS[3], key)
  end
end
local enqueue = 0
if #KEYS == 6 then
  redis.call('SADD', KEYS[5], ARGV[9])
  if redis.call('SET', KEYS[6], '1', 'NX', 'PX', ARGV[10]) then
    enqueue = 1
  end
end
return {'ok', enqueue}
