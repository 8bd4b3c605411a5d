#pragma once

#include <QByteArray>

namespace switchyard {

// The reason phrase of an HTTP status ("OK", "Not Found", ...), for a status line we write;
// "Unknown" for a code neither of our servers sends.
QByteArray httpReasonPhrase(int status);

} // namespace switchyard
