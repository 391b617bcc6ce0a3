// examples/regions_cxx.cpp - libbaretma from C++: the header is C, with
// extern "C"; a small RAII wrapper closes the session (restoring every
// register) on every path out, exceptions included.
//
//     c++ -O2 regions_cxx.cpp $(pkg-config --cflags --libs baretma)
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <baretma.h>

class Session {
public:
	explicit Session(const baretma_options &o)
	{
		if (baretma_open(&bm_, &o) < 0)
			throw std::runtime_error(baretma_last_error());
	}
	~Session() { baretma_close(bm_); }
	Session(const Session &) = delete;
	Session &operator=(const Session &) = delete;

	template <class F> void region(const char *name, F &&f)
	{
		baretma_region_begin(bm_, name);
		f();
		baretma_region_end(bm_, name);
	}
	baretma_result get(const char *name)
	{
		baretma_result r;
		if (baretma_region_get(bm_, name, &r) < 0)
			throw std::runtime_error(baretma_last_error());
		return r;
	}

private:
	baretma *bm_ = nullptr;
};

int main(int argc, char **argv)
{
	baretma_options o = BARETMA_OPTIONS_INIT;
	if (argc > 1)
		o.backend = argv[1];
	try {
		Session s(o);
		std::vector<int> v(1 << 16);
		for (int i = 0; i < 20; i++)
			s.region("fill", [&] {
				for (size_t k = 0; k < v.size(); k++)
					v[k] = static_cast<int>(k * 7 + i);
			});
		baretma_result r = s.get("fill");
		std::printf("fill: count %llu, %.0f TSC ticks, level %d\n",
			    static_cast<unsigned long long>(r.count), r.tsc, r.level);
		if (r.level)
			std::printf("  %s %.2f %%\n", baretma_tma_name(BARETMA_TMA_RETIRING),
				    r.tma[BARETMA_TMA_RETIRING]);
	} catch (const std::exception &e) {
		std::fprintf(stderr, "regions_cxx: %s\n", e.what());
		return 1;
	}
	return 0;
}
