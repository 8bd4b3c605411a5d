#pragma once

#include "config/redaction.h"
#include "rpc/rpcreply.h"

#include <QList>

namespace switchyard {

// What a node says back (a JSON-RPC error's message and data, an HTTP error body, what a
// malformed answer held) can echo the request's URL or its key. Replies leave the client with
// those texts scrubbed of the node's secrets, so no caller can show, store or export them.
RpcReply withNodeTextsRedacted(RpcReply reply, const SecretScrubber& scrubber);
QList<RpcReply> withNodeTextsRedacted(QList<RpcReply> replies, const SecretScrubber& scrubber);

} // namespace switchyard
