-- Append one log entry atomically: exists, token, rate budget, idempotency, expected
-- version, chain link, write. rate.lua is prepended (spend).
-- KEYS[1] log stream, KEYS[2] idempotency hash, KEYS[3] idempotency expiry zset, KEYS[4] token hash,
-- KEYS[5] the claim on the next append, KEYS[6 .. 5 + n] the n counters of the caller's rate budget;
-- optional KEYS[6 + n] pending set, KEYS[7 + n] scheduled flag (single node only: they are not hash-tagged),
-- which mark the battle pending in the same round trip.
-- ARGV[1] expected version ("" = any), ARGV[2] idempotency key ("" = none), ARGV[3] fingerprint,
-- ARGV[4] prev version the hash was computed on, ARGV[5] prev hash, ARGV[6] new entry ID "0-<v>",
-- ARGV[7] new version, ARGV[8] new hash, ARGV[9] battle id, ARGV[10] scheduled flag TTL (ms),
-- ARGV[11] the stream field/value pairs as one JSON array (one argument is cheaper to send than 18),
-- ARGV[12] how long the key's record is kept (ms), ARGV[13] how long it counts as in flight (ms, 0: not at
-- all, its answer is known), ARGV[14] the digest of the token the command came with ("" = none): it must be
-- stored and not revoked, ARGV[15] this append's own id (its claim), ARGV[16] n, the budget's windows, then n
-- pairs (amount, window ms).
-- An idempotency record is what a replay needs and no more: "<fingerprint> <version>", then " l<lease end
-- ms>" while in flight or " =<answer>" once answered; its expiry is its score in the zset. A replayed 202 is
-- the entry's own version and hash, read from the log.
-- Every reply is {status, budget window, left, reset ms, ...}: the RateLimit fields without another read.
local function hash_of(fields)
  for i = #fields - 1, 1, -2 do
    if fields[i] == 'hash' then
      return fields[i + 1]
    end
  end
  return ''
end

local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then
  return {'unknown', 0, 0, 0}
end
-- the API may have judged the token on a remembered record; a revocation since then is seen here
if ARGV[14] ~= '' then
  local token = redis.call('HGET', KEYS[4], ARGV[14])
  if not token or cjson.decode(token).revoked then
    return {'token', 0, 0, 0}
  end
end
local current = tonumber(string.sub(last[1][1], 3))
local head_hash = hash_of(last[1][2])
-- Python hashed against its cached head; if that head is stale, hand back the real one to rehash (before
-- counting: the retry is the same request). An append that lost this race claims the next turn, so on a hot
-- battle the same caller cannot lose every retry; the claim lapses soon if its caller is gone.
local claim = redis.call('GET', KEYS[5])
if claim and claim ~= ARGV[15] then
  return {'moved', 0, 0, 0, current, head_hash}
end
if tonumber(ARGV[4]) ~= current or ARGV[5] ~= head_hash then
  if not claim then
    redis.call('SET', KEYS[5], ARGV[15], 'PX', 100)
  end
  return {'moved', 0, 0, 0, current, head_hash}
end
if claim then
  redis.call('DEL', KEYS[5])
end

local windows = tonumber(ARGV[16])
local tightest, left, reset = spend(6, 16)
if left < 0 then
  return {'limited', tightest, left, reset}
end

local now = 0
if ARGV[2] ~= '' then
  local clock = redis.call('TIME')
  now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
  local record = redis.call('HGET', KEYS[2], ARGV[2])
  local expires = record and redis.call('ZSCORE', KEYS[3], ARGV[2])
  if expires and tonumber(expires) > now then  -- an expired record is as good as none
    local fingerprint, version, rest = string.match(record, '^(%S+) (%d+) ?(.*)$')
    if string.sub(record, 1, 1) == '{' then  -- a record of the earlier JSON layout, kept until it expires
      local seen = cjson.decode(record)
      fingerprint, version = string.sub(seen.f, 1, #ARGV[3]), tostring(seen.v)
      rest = (not seen.r and seen.l) and ('l' .. seen.l) or ''
    end
    if fingerprint ~= ARGV[3] then
      return {'mismatch', tightest, left, reset, version}
    end
    if string.sub(rest, 1, 1) == 'l' and tonumber(string.sub(rest, 2)) > now then
      return {'inflight', tightest, left, reset, version}
    end
    -- written again as it is: this connection's replication offset then covers the first attempt's entry,
    -- so a WAIT after this reply waits for the replicas to hold what is replayed
    redis.call('HSET', KEYS[2], ARGV[2], record)
    local entry = redis.call('XRANGE', KEYS[1], '0-' .. version, '0-' .. version)
    local answer = string.sub(rest, 1, 1) == '=' and string.sub(rest, 2) or false
    return {'replayed', tightest, left, reset, version, hash_of(entry[1][2]), answer}
  end
end

if ARGV[1] ~= '' and tonumber(ARGV[1]) ~= current then
  return {'conflict', tightest, left, reset, current}
end

redis.call('XADD', KEYS[1], ARGV[6], unpack(cjson.decode(ARGV[11])))
if ARGV[2] ~= '' then
  local expires = now + tonumber(ARGV[12])
  local lease = tonumber(ARGV[13])
  local record = ARGV[3] .. ' ' .. ARGV[7] .. (lease > 0 and (' l' .. (now + lease)) or '')
  redis.call('HSET', KEYS[2], ARGV[2], record)
  redis.call('ZADD', KEYS[3], expires, ARGV[2])
  -- prune a few expired records per keyed append, so the hash stays as small as the retention says
  local stale = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 16)
  for _, key in ipairs(stale) do
    redis.call('HDEL', KEYS[2], key)
    redis.call('ZREM', KEYS[3], key)
  end
end
local enqueue = 0
if #KEYS == 7 + windows then
  redis.call('SADD', KEYS[6 + windows], ARGV[9])
  if redis.call('SET', KEYS[7 + windows], '1', 'NX', 'PX', ARGV[10]) then
    enqueue = 1
  end
end
return {'ok', tightest, left, reset, enqueue}
