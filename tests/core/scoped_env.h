// An environment variable set for the scope of a test (FISURA_MODELS and the like), restored
// (or unset) when the scope ends.
#pragma once

#include <QByteArray>
#include <QtGlobal>

namespace fisura::test
{

struct ScopedEnv {
    ScopedEnv(const char* name, const QByteArray& value) : name_(name)
    {
        had_ = qEnvironmentVariableIsSet(name);
        old_ = qgetenv(name);
        qputenv(name, value);
    }
    ~ScopedEnv()
    {
        if (had_)
            qputenv(name_, old_);
        else
            qunsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    bool had_;
    QByteArray old_;
};

} // namespace fisura::test
