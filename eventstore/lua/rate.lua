-- Fixed-window rate budgets, prepended to every script that counts a request (eventstore/lua/__init__.py).
-- spend(first_key, first_arg): KEYS[first_key], KEYS[first_key + 1], ... one counter per window; ARGV[first_arg]
-- the number n of windows, then n pairs (amount, window ms). Every counter is hit, as flask-limiter's fixed
-- window does: INCR, and a counter's window starts at its first hit. Answers the tightest window: its index
-- (0: no window), what is left in it (negative once past it) and the ms until it starts over.
local function spend(first_key, first_arg)
  local tightest, least, reset = 0, 0, 0
  for i = 1, tonumber(ARGV[first_arg]) do
    local key = KEYS[first_key + i - 1]
    local amount = tonumber(ARGV[first_arg + 2 * i - 1])
    local window = tonumber(ARGV[first_arg + 2 * i])
    local left = amount - redis.call('INCR', key)
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then
      redis.call('PEXPIRE', key, window)
      ttl = window
    end
    if tightest == 0 or left < least then
      tightest, least, reset = i, left, ttl
    end
  end
  return tightest, least, reset
end
