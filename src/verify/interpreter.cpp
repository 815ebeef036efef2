#include "interpreter.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <vector>

#include "recompile_script.h"

extern char** environ;

namespace uncompile {

namespace {

namespace fs = std::filesystem;

bool is_executable(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string env_or_empty(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::optional<std::string> on_path(const std::string& exe) {
    std::string path = env_or_empty("PATH");
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find(':', start);
        if (end == std::string::npos) end = path.size();
        std::string dir = path.substr(start, end - start);
        start = end + 1;
        if (dir.empty() || fs::path(dir).filename() == "shims") continue;
        std::string candidate = dir + "/" + exe;
        if (is_executable(candidate)) return candidate;
    }
    return std::nullopt;
}

std::string pyenv_root() {
    for (const char* name : {"UNCOMPILE_PYENV_ROOT", "PYENV_ROOT"})
        if (std::string root = env_or_empty(name); !root.empty()) return root;
    std::string home = env_or_empty("HOME");
    return home.empty() ? "" : home + "/.pyenv";
}

std::optional<std::string> in_pyenv(const std::string& root, PyVersion version) {
    std::error_code ec;
    std::string prefix = version.str() + ".";
    std::optional<std::string> best;
    long best_patch = -1;
    for (const auto& entry : fs::directory_iterator(root + "/versions", ec)) {
        std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0) continue;
        std::string patch = name.substr(prefix.size());
        if (patch.empty() || patch.size() > 6 || !std::all_of(patch.begin(), patch.end(), ::isdigit)) continue;
        std::string exe = entry.path().string() + "/bin/python";
        if (std::stol(patch) > best_patch && is_executable(exe)) {
            best_patch = std::stol(patch);
            best = exe;
        }
    }
    return best;
}

// A file under $TMPDIR (or /tmp) that is removed when this goes out of scope.
struct TempFile {
    std::string path;
    int fd = -1;

    explicit TempFile(const char* stem) {
        std::string dir = env_or_empty("TMPDIR");
        std::string pattern = (dir.empty() ? std::string("/tmp") : dir) + "/" + stem + "-XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        fd = ::mkstemp(buf.data());
        if (fd < 0) throw RecompileError("cannot create a temporary file in " + pattern + ": " + std::strerror(errno));
        path = buf.data();
    }
    ~TempFile() {
        if (fd >= 0) ::close(fd);
        ::unlink(path.c_str());
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    void write_all(const std::string& data) const {
        size_t done = 0;
        while (done < data.size()) {
            ssize_t n = ::write(fd, data.data() + done, data.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) throw RecompileError("cannot write " + path + ": " + std::strerror(errno));
            done += static_cast<size_t>(n);
        }
    }
    std::string read_all() const {
        std::string out;
        char buf[4096];
        ::lseek(fd, 0, SEEK_SET);
        for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
        return out;
    }
};

std::string read_until_eof(int fd) {
    std::string out;
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        out.append(buf, static_cast<size_t>(n));
    }
    return out;
}

}  // namespace

std::string find_interpreter(PyVersion version) {
    std::string exe = "python" + version.str();
    std::string var = "UNCOMPILE_PYTHON_" + std::to_string(version.major) + "_" + std::to_string(version.minor);
    if (std::string path = env_or_empty(var.c_str()); !path.empty()) {
        if (is_executable(path)) return path;
        throw RecompileError(var + "=" + path + " is not an executable file");
    }
    if (auto found = on_path(exe)) return *found;
    std::string root = pyenv_root();
    if (!root.empty())
        if (auto found = in_pyenv(root, version)) return *found;
    throw RecompileError("no Python " + version.str() + " interpreter found to recompile with: set " + var +
                         ", put " + exe + " on PATH, or install it with pyenv (looked in " +
                         (root.empty() ? std::string("no pyenv root") : root + "/versions") + ")");
}

RecompileOutcome recompile_in(const std::string& python, PyVersion version, const std::string& source,
                              const std::string& filename, uint32_t flags) {
    TempFile source_file("uncompile-src");
    source_file.write_all(source);
    TempFile error_file("uncompile-err");
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw RecompileError(std::string("pipe: ") + std::strerror(errno));

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, error_file.fd, 2);
    std::string version_text = version.str(), flags_text = std::to_string(flags);
    std::vector<std::string> args = {python, "-I", "-c", kRecompileScript, version_text, source_file.path, filename,
                                     flags_text};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    int rc = ::posix_spawn(&pid, python.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    if (rc != 0) {
        ::close(pipe_fds[0]);
        throw RecompileError("cannot run " + python + ": " + std::strerror(rc));
    }
    std::string reply = read_until_eof(pipe_fds[0]);
    ::close(pipe_fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || reply.empty()) {
        std::string err = error_file.read_all();
        if (err.size() > 2000) err = "..." + err.substr(err.size() - 2000);
        throw RecompileError(python + " failed to recompile (" +
                             (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                                : "killed by signal " + std::to_string(WTERMSIG(status))) +
                             ")" + (err.empty() ? "" : ":\n" + err));
    }
    if (reply[0] == 'V')
        throw RecompileError(python + " is Python " + reply.substr(1) + ", not " + version.str());
    if (reply[0] != 'M' && reply[0] != 'E') throw RecompileError(python + " gave an unexpected reply");
    return {reply[0] == 'M', reply.substr(1)};
}

}  // namespace uncompile
