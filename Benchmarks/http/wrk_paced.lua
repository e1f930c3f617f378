-- wrk script: each connection sends its next request a fixed number of milliseconds after
-- the last answer (argument 1), so N connections make about N * 1000 / ms requests per
-- second, whatever the server could do: the load of a rate, not of a saturation.
local interval = 10

function init(args)
  interval = tonumber(args[1]) or interval
end

function delay()
  return interval
end
