-- POST one JSON body (the first argument) to the URL's path, the same bytes every time.
local request_text
function init(args)
  request_text = wrk.format("POST", nil, { ["Content-Type"] = "application/json" }, args[1])
end
function request() return request_text end
