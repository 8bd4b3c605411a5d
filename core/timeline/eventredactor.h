#pragma once

#include "config/redaction.h"

#include <QByteArrayView>
#include <QString>

namespace switchyard {

// The last line of defence before event text leaves the program (CSV export): events are
// redacted when they are made, but a message from an older version, or one a provider echoed,
// must not carry a key out. Every URL in the text (scheme://...) becomes its redactedUrlText()
// form, and the secrets a SecretScrubber knows (from the configuration) become •••.
class EventRedactor
{
public:
    EventRedactor() = default;
    explicit EventRedactor(SecretScrubber scrubber);

    QString redacted(const QString& text) const;
    // False when the UTF-8 text cannot hold anything to redact, so it can be copied as it is.
    bool needsWork(QByteArrayView utf8) const;

private:
    SecretScrubber m_scrubber;
};

} // namespace switchyard
