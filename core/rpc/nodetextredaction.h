#pragma once

#include "config/redaction.h"
#include "rpc/rpcreply.h"

#include <QList>
#include <QString>

namespace switchyard {

// The most of one node text (an error message, a string in an error's data, a body snippet, a
// WebSocket close reason) that goes on into the system, in characters.
inline constexpr qsizetype maxNodeTextChars = 300;

// `text` cut to maxNodeTextChars, the rest counted: "… (+4,999,700 bytes)". A node decides
// how long its error texts are; what we show, store and export must not follow it.
QString boundedNodeText(const QString& text);

// What a node says back (a JSON-RPC error's message and data, an HTTP error body, what a
// malformed answer held) can echo the request's URL or its key, and be megabytes long. Replies
// leave the client with those texts scrubbed of the node's secrets and then bounded
// (boundedNodeText), so no caller can show, store or export them whole.
RpcReply withNodeTextsRedacted(RpcReply reply, const SecretScrubber& scrubber);
QList<RpcReply> withNodeTextsRedacted(QList<RpcReply> replies, const SecretScrubber& scrubber);

} // namespace switchyard
