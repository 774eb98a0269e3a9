// What resume data cannot vouch for, checked on disk before a torrent is added again.
#include "Engine.hpp"

#include <libtorrent/add_torrent_params.hpp>
#include <libtorrent/hasher.hpp>
#include <libtorrent/torrent_info.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <vector>

namespace haul {

/// The path piece data of file `index` is at under `params` (its save path, and its name there
/// when it was renamed).
static std::string path_of(lt::add_torrent_params const &params, lt::file_storage const &files, lt::file_index_t index) {
    auto renamed = params.renamed_files.find(index);
    std::string relative = renamed != params.renamed_files.end() ? renamed->second : files.file_path(index);
    return params.save_path + "/" + relative;
}

/// Reads `length` bytes at `offset` of `path` into `out`; false when the file is missing, short,
/// or holds no data there (a hole: nothing was written).
static bool read_written(std::string const &path, std::int64_t offset, std::int64_t length, char *out) {
    int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (descriptor < 0) return false;
    off_t data = ::lseek(descriptor, offset, SEEK_DATA);
    bool read = data == offset;
    std::int64_t done = 0;
    while (read && done < length) {
        ssize_t count = ::pread(descriptor, out + done, static_cast<size_t>(length - done), offset + done);
        if (count <= 0) read = false;
        done += count > 0 ? count : 0;
    }
    ::close(descriptor);
    return read;
}

void vouch_for_written_pieces(lt::add_torrent_params &params) {
    if (!params.ti || !params.ti->info_hashes().has_v1()) return;
    auto const &info = *params.ti;
    auto const &files = info.files();
    int const count = info.num_pieces();
    if (params.have_pieces.size() < count) params.have_pieces.resize(count, false);
    std::vector<char> buffer(static_cast<size_t>(info.piece_length()));
    for (lt::piece_index_t piece(0); static_cast<int>(piece) < count; ++piece) {
        if (params.have_pieces.get_bit(piece)) continue;
        int const size = info.piece_size(piece);
        bool whole = true;
        std::int64_t at = 0;
        for (auto const &slice : files.map_block(piece, 0, size)) {
            if (files.pad_file_at(slice.file_index)) {
                std::fill_n(buffer.data() + at, slice.size, 0);
            } else if (!read_written(path_of(params, files, slice.file_index), slice.offset, slice.size,
                                     buffer.data() + at)) {
                whole = false;
                break;
            }
            at += slice.size;
        }
        if (whole && lt::hasher(buffer.data(), size).final() == info.hash_for_piece(piece)) {
            params.have_pieces.set_bit(piece);
        }
    }
}

}  // namespace haul
