/**
 * Sliding-window logs of requests in sorted sets (score = arrival time in µs), one per window
 * a request counts against (a key's, its account's). A request is recorded in all of them or,
 * when any is full, in none. Runs atomically in Redis and reads Redis' own clock, so every
 * replica sees the same windows.
 * KEYS[i] the log of window i; ARGV[1] window length in µs; ARGV[2] a unique member for this
 * request; ARGV[2 + i] the limit of window i.
 * Returns {allowed (0/1), then per window: requests in it, µs until it has room for one more}.
 */
export const SLIDING_WINDOW_SCRIPT = `
local window = tonumber(ARGV[1])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local counts = {}
local allowed = 1
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  counts[i] = redis.call('ZCARD', KEYS[i])
  if counts[i] >= tonumber(ARGV[2 + i]) then allowed = 0 end
end
local reply = {allowed}
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 + i])
  if allowed == 1 then
    redis.call('ZADD', KEYS[i], now, ARGV[2])
    redis.call('PEXPIRE', KEYS[i], math.ceil(window / 1000))
    counts[i] = counts[i] + 1
  end
  -- Room for one more request once all entries up to this one have left the window.
  local entry = redis.call('ZRANGE', KEYS[i], math.max(counts[i] - limit, 0), math.max(counts[i] - limit, 0), 'WITHSCORES')
  local wait = 0
  if entry[2] then wait = tonumber(entry[2]) + window - now end
  reply[#reply + 1] = counts[i]
  reply[#reply + 1] = wait
end
return reply
`;
